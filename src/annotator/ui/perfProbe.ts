/**
 * Opt-in timing samples for the benchmarks: when a page defines `window.__spocPerf = []`, the editor
 * appends [name, milliseconds] for its hot paths (pointer handling, mask repaint). Otherwise it costs
 * one property read.
 */
type Sink = [string, number][];

export function recordPerf(name: string, ms: number): void {
  const sink = (globalThis as { __spocPerf?: Sink }).__spocPerf;
  if (sink) sink.push([name, ms]);
}
