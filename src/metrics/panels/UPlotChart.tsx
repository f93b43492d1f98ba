/**
 * The one React wrapper around uPlot (https://github.com/leeoniya/uPlot): the chart is created once
 * per `options` object and fed new data with setData, so an update costs one canvas redraw and no
 * React work inside the chart. It fills its container's width and follows resizes.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './charts.css';

export type ChartOptions = Omit<uPlot.Options, 'width' | 'height'>;

interface Props {
  /** Options without size. A new object rebuilds the chart, so memoise it. */
  options: ChartOptions;
  data: uPlot.AlignedData;
  height: number;
  /** Changing it redraws the chart without new data (e.g. the current-frame marker moved). */
  redrawKey?: unknown;
  className?: string;
  testId?: string;
}

export function UPlotChart({ options, data, height, redrawKey, className, testId }: Props) {
  const el = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(data);

  useEffect(() => {
    latest.current = data;
  });

  useEffect(() => {
    const target = el.current!;
    const u = new uPlot({ ...options, width: Math.max(100, target.clientWidth), height } as uPlot.Options, latest.current, target);
    plot.current = u;
    const ro = new ResizeObserver(() => {
      const w = Math.max(100, target.clientWidth);
      if (w !== u.width) u.setSize({ width: w, height });
    });
    ro.observe(target);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [options, height]);

  // Layout effect: the new data is drawn in the same task as the render that produced it.
  useLayoutEffect(() => {
    const u = plot.current;
    if (u && u.data !== data) u.setData(data);
  }, [data]);

  // uPlot redraws in a microtask, after the parent's layout effects have updated what its hooks read.
  useLayoutEffect(() => {
    plot.current?.redraw(false, false);
  }, [redrawKey]);

  return <div ref={el} className={`spoc-chart ${className ?? ''}`} data-testid={testId} />;
}
