/** Brightness and contrast sliders for the frame picture (not the masks), kept with the view settings; reset returns both to 1. */
import { useEditorView } from './editorViewState';
import { LIGHT_MAX, LIGHT_MIN } from '../canvas/frameLight';

export function FrameLightControls() {
  const brightness = useEditorView((v) => v.brightness);
  const contrast = useEditorView((v) => v.contrast);
  const set = useEditorView((v) => v.set);
  const slider = 'w-16';
  return (
    <span className="flex items-center gap-1 text-xs text-zinc-400" title="Frame picture only: the masks keep their colours">
      <label className="flex items-center gap-1">
        ☀
        <input type="range" className={slider} min={LIGHT_MIN} max={LIGHT_MAX / 2} step={0.05} value={brightness} aria-label="Frame brightness" onChange={(e) => set({ brightness: Number(e.target.value) })} />
      </label>
      <label className="flex items-center gap-1">
        ◐
        <input type="range" className={slider} min={LIGHT_MIN} max={LIGHT_MAX / 2} step={0.05} value={contrast} aria-label="Frame contrast" onChange={(e) => set({ contrast: Number(e.target.value) })} />
      </label>
      {(brightness !== 1 || contrast !== 1) && (
        <button className="rounded px-1 hover:bg-zinc-800" aria-label="Reset brightness and contrast" onClick={() => set({ brightness: 1, contrast: 1 })}>
          reset
        </button>
      )}
    </span>
  );
}
