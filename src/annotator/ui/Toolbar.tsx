/** Tool, class, brush and view controls; every button runs the same named action as its shortcut. */
import { ACTIONS, findAction, runAction, type ActionContext } from '../actions';
import { formatShortcut } from '../shortcuts';
import { useEditorView } from './editorViewState';
import { FrameLightControls } from './FrameLightControls';

const btn = 'rounded px-2 py-1 text-sm hover:bg-zinc-800 disabled:opacity-40';
const on = 'bg-zinc-700 text-white';

function ActionButton({ id, ctx, active = false, children }: { id: string; ctx: ActionContext; active?: boolean; children?: React.ReactNode }) {
  const action = findAction(id)!;
  const key = action.shortcuts[0];
  return (
    <button
      className={`${btn} ${active ? on : ''}`}
      title={`${action.label}${key ? ` (${formatShortcut(key)})` : ''}`}
      aria-label={action.label}
      aria-pressed={active}
      data-action={id}
      disabled={!action.enabled(ctx)}
      onClick={() => runAction(action, ctx)}
    >
      {children ?? action.label}
    </button>
  );
}

/** `children`: other rooms' actions (AI assists), placed after the edit actions (the editor's `tools` slot). */
/** `states`: show the two state buttons (SPOC projects); an objects project picks objects in its panel instead. */
export function Toolbar({ ctx, states = true, children }: { ctx: ActionContext; states?: boolean; children?: React.ReactNode }) {
  const { state } = ctx;
  const view = useEditorView();
  return (
    <div className="flex flex-wrap items-center gap-1 whitespace-nowrap border-b border-zinc-800 bg-zinc-900 px-2 py-1" role="toolbar" aria-label="Editor tools">
      {states && (
        <>
          <ActionButton id="class.1" ctx={ctx} active={state.activeClass === 1}>
            <span style={{ color: view.colours[1] }}>■</span> actionable
          </ActionButton>
          <ActionButton id="class.2" ctx={ctx} active={state.activeClass === 2}>
            <span style={{ color: view.colours[2] }}>■</span> transformed
          </ActionButton>
        </>
      )}
      <ActionButton id="class.0" ctx={ctx} active={state.activeClass === 0}>
        erase
      </ActionButton>
      <span className="mx-1 h-5 w-px bg-zinc-700" />
      {ACTIONS.filter((a) => a.id.startsWith('tool.')).map((a) => (
        <ActionButton key={a.id} id={a.id} ctx={ctx} active={state.tool === a.id.slice(5)}>
          {a.label}
        </ActionButton>
      ))}
      {state.tool === 'tag' && (
        <span className="flex items-center text-xs text-zinc-300">
          <ActionButton id="instance.previous" ctx={ctx}>
            ‹
          </ActionButton>
          <span data-testid="instance-id">#{state.instanceId}</span>
          <ActionButton id="instance.next" ctx={ctx}>
            ›
          </ActionButton>
        </span>
      )}
      <span className="mx-1 h-5 w-px bg-zinc-700" />
      <ActionButton id="brush.smaller" ctx={ctx}>
        −
      </ActionButton>
      <span className="w-14 text-center text-xs tabular-nums text-zinc-300" data-testid="brush-size">
        {state.brushSize} px
      </span>
      <ActionButton id="brush.larger" ctx={ctx}>
        +
      </ActionButton>
      <ActionButton id="brush.protect" ctx={ctx} active={state.protect}>
        protect other
      </ActionButton>
      <span className="mx-1 h-5 w-px bg-zinc-700" />
      <ActionButton id="edit.undo" ctx={ctx}>
        ↶ undo
      </ActionButton>
      <ActionButton id="edit.redo" ctx={ctx}>
        ↷ redo
      </ActionButton>
      <ActionButton id="edit.copyPrevious" ctx={ctx}>
        copy previous
      </ActionButton>
      <ActionButton id="edit.clearFrame" ctx={ctx}>
        clear
      </ActionButton>
      {children && (
        <>
          <span className="mx-1 h-5 w-px bg-zinc-700" />
          {children}
        </>
      )}
      <span className="flex-1" />
      <label className="flex items-center gap-1 text-xs text-zinc-400">
        opacity
        <input
          type="range"
          min={0.1}
          max={1}
          step={0.05}
          value={view.opacity}
          aria-label="Mask opacity"
          onChange={(e) => view.set({ opacity: Number(e.target.value) })}
        />
      </label>
      <FrameLightControls />
      <StateColourPicker state={1} label="Actionable colour" />
      <StateColourPicker state={2} label="Transformed colour" />
      <ActionButton id="view.outline" ctx={ctx} active={view.style === 'outline'}>
        outline
      </ActionButton>
      <ActionButton id="view.onion" ctx={ctx} active={view.onion}>
        onion
      </ActionButton>
      <ActionButton id="view.masks" ctx={ctx} active={!ctx.state.masksVisible}>
        hide
      </ActionButton>
      <ActionButton id="view.fit" ctx={ctx}>
        fit
      </ActionButton>
      <ActionButton id="view.actualSize" ctx={ctx}>
        1:1
      </ActionButton>
      <ActionButton id="view.shortcuts" ctx={ctx}>
        ?
      </ActionButton>
    </div>
  );
}

/**
 * The colour a state is drawn in on the canvas, kept with the editor's view settings: pick one that
 * stands out on this clip's frames (an orange object hides the default red).
 */
function StateColourPicker({ state, label }: { state: 1 | 2; label: string }) {
  const colours = useEditorView((v) => v.colours);
  return (
    <input
      type="color"
      aria-label={label}
      title={`${label} on the canvas`}
      value={colours[state]}
      className="h-5 w-6 cursor-pointer rounded border-0 bg-transparent p-0"
      onChange={(e) => useEditorView.getState().set({ colours: { ...colours, [state]: e.target.value } })}
    />
  );
}
