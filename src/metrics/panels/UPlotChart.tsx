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
  /** Changing it redraws the chart without new data (e.g. the phase bands changed). */
  redrawKey?: unknown;
  /**
   * An x value marked by a vertical line (the frame shown in the editor), or undefined. The line is an
   * element over the plot, moved without redrawing the chart: a frame switch costs no canvas redraw.
   */
  marker?: number;
  className?: string;
  testId?: string;
}

export function UPlotChart({ options, data, height, redrawKey, marker, className, testId }: Props) {
  const el = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(data);
  const markerLine = useRef<HTMLDivElement | null>(null);
  const markerAt = useRef(marker);

  useEffect(() => {
    latest.current = data;
  });

  useEffect(() => {
    const target = el.current!;
    const u = new uPlot({ ...options, width: Math.max(100, target.clientWidth), height } as uPlot.Options, latest.current, target);
    plot.current = u;
    const line = document.createElement('div');
    line.className = 'spoc-chart-marker';
    u.over.appendChild(line);
    markerLine.current = line;
    placeMarker(u, line, markerAt.current);
    const ro = new ResizeObserver(() => {
      const w = Math.max(100, target.clientWidth);
      if (w !== u.width) u.setSize({ width: w, height });
      placeMarker(u, line, markerAt.current);
    });
    ro.observe(target);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = null;
      markerLine.current = null;
    };
  }, [options, height]);

  useLayoutEffect(() => {
    markerAt.current = marker;
    if (plot.current && markerLine.current) placeMarker(plot.current, markerLine.current, marker);
  }, [marker]);

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

function placeMarker(u: uPlot, line: HTMLDivElement, x: number | undefined): void {
  if (x === undefined || !Number.isFinite(x)) {
    line.style.display = 'none';
    return;
  }
  line.style.display = '';
  // CSS pixels from the plot area's left; the line is 2 px wide, centred on the value.
  line.style.transform = `translateX(${Math.round(u.valToPos(x, 'x')) - 1}px)`;
}
