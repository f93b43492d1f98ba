/**
 * Actions other rooms contribute to the editor's one action table (palette, shortcut sheet, keys),
 * for commands whose state lives in a room's component (the review bar's prompts, reviewer mode's
 * verdicts, the propagation run). The room declares the action once (`roomAction`, returned from
 * the editor's `useActions` slot) and the component that owns the state publishes what running it
 * means now (`usePublishRunner`); while no component publishes it, the action is disabled with the
 * room's reason ("reviewer mode is off").
 */
import { useEffect, useRef } from 'react';
import { create } from 'zustand';
import { ACTION_SCOPES, type Action, type ActionGroup, type ActionScope } from '../actions';

export interface Runner {
  /** Null when it can run now; else why not. */
  disabled: string | null;
  run(): void;
}

interface RunnerStore {
  runners: Readonly<Record<string, Runner>>;
  /** Input modes a component has turned on (usePublishScope), by how many components hold them. */
  scopes: Readonly<Partial<Record<ActionScope, number>>>;
}

export const useRunners = create<RunnerStore>()(() => ({ runners: {}, scopes: {} }));

/** The input modes on now, in ACTION_SCOPES order (the key handler's ActionContext.scopes). */
export function activeScopes(): ActionScope[] {
  const held = useRunners.getState().scopes;
  return ACTION_SCOPES.filter((s) => (held[s] ?? 0) > 0);
}

/** Holds input mode `scope` on while `on` and the component is mounted. */
export function usePublishScope(scope: ActionScope, on: boolean): void {
  useEffect(() => {
    if (!on) return;
    const add = (d: number) => useRunners.setState((st) => ({ scopes: { ...st.scopes, [scope]: Math.max(0, (st.scopes[scope] ?? 0) + d) } }));
    add(1);
    return () => add(-1);
  }, [scope, on]);
}

export interface RoomActionSpec {
  id: string;
  label: string;
  group: ActionGroup;
  shortcuts?: readonly string[];
  /** The input mode whose keys these are (see ACTION_SCOPES). */
  when?: ActionScope;
  /** Why it cannot run while no component publishes a runner for it. */
  absent: string;
}

export function roomAction({ id, label, group, shortcuts = [], when, absent }: RoomActionSpec): Action {
  const runner = () => useRunners.getState().runners[id];
  return {
    id,
    label,
    group,
    shortcuts,
    ...(when ? { when } : {}),
    enabled: () => {
      const r = runner();
      return r !== undefined && r.disabled === null;
    },
    reason: () => runner()?.disabled ?? absent,
    run: () => runner()?.run(),
  };
}

/**
 * Publishes the runners of a component's actions while it is mounted: `runners` is read afresh on
 * every render (so a runner sees the component's latest state), and removed on unmount.
 */
export function usePublishRunners(runners: Record<string, Runner>): void {
  const latest = useRef(runners);
  useEffect(() => {
    latest.current = runners;
  });
  // Republished when what can run changes; the run functions themselves are read at run time.
  const key = Object.entries(runners)
    .map(([id, r]) => `${id}=${r.disabled ?? ''}`)
    .join('\u0000');
  useEffect(() => {
    const published: Record<string, Runner> = {};
    for (const part of key.split('\u0000')) {
      const at = part.indexOf('=');
      const id = part.slice(0, at);
      const disabled = part.slice(at + 1);
      published[id] = { disabled: disabled === '' ? null : disabled, run: () => latest.current[id]?.run() };
    }
    useRunners.setState((s) => ({ runners: { ...s.runners, ...published } }));
    return () =>
      useRunners.setState((s) => {
        const next = { ...s.runners };
        for (const id of Object.keys(published)) if (next[id] === published[id]) delete next[id];
        return { runners: next };
      });
  }, [key]);
}
