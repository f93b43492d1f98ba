/**
 * Prints the demo generator's render time per frame.
 * Run: npx tsx bench/demo-render.bench.ts [frames]
 */
import { formatTimings, measureAll } from '../src/demo/timing';

const frames = Number(process.argv[2] ?? 100);
console.log(`demo render timing (Node ${process.version}, ${frames} frames per row)`);
console.log(formatTimings(measureAll([[640, 360], [1280, 720]], frames)));
