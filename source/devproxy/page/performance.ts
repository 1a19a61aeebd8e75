/** What the browser measured: navigation and paint timing, resources, layout shifts and long tasks. */
import {describe, limitOf, round} from './element.js';
import {primitive} from './primitive.js';

/** Entries of a type the browser buffered since load; empty when the type is not supported. */
function buffered(type: string, waitMs = 50): Promise<PerformanceEntry[]> {
  if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes(type)) return Promise.resolve([]);
  return new Promise((resolve) => {
    const entries: PerformanceEntry[] = [];
    const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
    observer.observe({type, buffered: true});
    // Buffered entries are delivered in the observer's first callback, a task later.
    window.setTimeout(() => {
      entries.push(...observer.takeRecords());
      observer.disconnect();
      resolve(entries);
    }, waitMs);
  });
}

interface LayoutShift extends PerformanceEntry {
  value: number;
  hadRecentInput: boolean;
  sources?: Array<{node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly}>;
}

export const performanceInfo = {
  getPerformance: primitive('', 'Navigation timing (TTFB, DOMContentLoaded, load), first paints, transfer size and JS heap', () => {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const paints = Object.fromEntries(performance.getEntriesByType('paint').map((entry) => [entry.name, round(entry.startTime)]));
    const memory = (performance as unknown as {memory?: {usedJSHeapSize: number; totalJSHeapSize: number}}).memory;
    return {
      navigation: navigation
        ? {
            type: navigation.type,
            ttfb: round(navigation.responseStart - navigation.requestStart),
            responseEnd: round(navigation.responseEnd),
            domInteractive: round(navigation.domInteractive),
            domContentLoaded: round(navigation.domContentLoadedEventEnd),
            load: round(navigation.loadEventEnd),
            transferSize: navigation.transferSize,
            encodedBodySize: navigation.encodedBodySize,
          }
        : null,
      paint: paints,
      resources: performance.getEntriesByType('resource').length,
      heap: memory ? {used: memory.usedJSHeapSize, total: memory.totalJSHeapSize} : null,
      now: round(performance.now()),
    };
  }),
  getResources: primitive('limit?', 'Loaded resources, slowest first: URL, type, duration, transfer size; totals by type', (limit?: unknown) => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const byType: Record<string, {count: number; bytes: number}> = {};
    for (const entry of entries) {
      const type = entry.initiatorType || 'other';
      byType[type] = byType[type] ?? {count: 0, bytes: 0};
      byType[type].count++;
      byType[type].bytes += entry.transferSize;
    }
    const max = limitOf(limit, 20);
    return {
      count: entries.length,
      byType,
      slowest: [...entries]
        .sort((a, b) => b.duration - a.duration)
        .slice(0, max)
        .map((entry) => ({
          url: entry.name.slice(0, 300),
          type: entry.initiatorType,
          duration: round(entry.duration),
          transferSize: entry.transferSize,
          status: (entry as unknown as {responseStatus?: number}).responseStatus,
        })),
    };
  }),
  getLayoutShifts: primitive('', 'Cumulative layout shift since load and the biggest shifts with the elements that moved (async)', async () => {
    const shifts = (await buffered('layout-shift')) as LayoutShift[];
    const counted = shifts.filter((shift) => !shift.hadRecentInput);
    return {
      cls: round(counted.reduce((sum, shift) => sum + shift.value, 0) * 1000) / 1000,
      count: shifts.length,
      shifts: [...counted]
        .sort((a, b) => b.value - a.value)
        .slice(0, 10)
        .map((shift) => ({
          value: round(shift.value * 1000) / 1000,
          at: round(shift.startTime),
          sources: (shift.sources ?? []).slice(0, 5).map((source) => ({
            element: source.node && source.node.nodeType === 1 ? describe(source.node as Element).selector : null,
            from: {x: round(source.previousRect.x), y: round(source.previousRect.y)},
            to: {x: round(source.currentRect.x), y: round(source.currentRect.y)},
          })),
        })),
    };
  }),
  getLargestContentfulPaint: primitive('', 'Largest contentful paint time and the element painted (async)', async () => {
    const entries = (await buffered('largest-contentful-paint')) as Array<PerformanceEntry & {element?: Element | null; size: number; url?: string}>;
    const last = entries[entries.length - 1];
    return last ? {time: round(last.startTime), size: last.size, url: last.url || null, element: last.element ? describe(last.element).selector : null} : {time: null};
  }),
  getLongTasks: primitive('', 'Main-thread tasks over 50 ms since load, longest first (async)', async () => {
    const tasks = await buffered('longtask');
    return {
      count: tasks.length,
      totalMs: round(tasks.reduce((sum, task) => sum + task.duration, 0)),
      longest: [...tasks]
        .sort((a, b) => b.duration - a.duration)
        .slice(0, 10)
        .map((task) => ({at: round(task.startTime), duration: round(task.duration)})),
    };
  }),
};
