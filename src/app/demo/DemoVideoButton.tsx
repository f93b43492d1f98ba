/**
 * Generates a demo state-change video and downloads it, so anyone can try the video importer
 * (frame k of the video carries its index as a barcode in the top-left corner).
 */
import { useState } from 'react';
import { notify, messageOf } from '../../workspace/notices';
import { encodeDemoVideoInWorker } from '../../io/demo/runDemoWorker';

export function DemoVideoButton() {
  const [busy, setBusy] = useState<string | null>(null);
  const make = async () => {
    setBusy('0%');
    try {
      const seed = 7;
      const video = await encodeDemoVideoInWorker(
        { seed, kind: 'grating', width: 640, height: 360, durationSec: 20, fps: 10, codec: 'vp9' },
        (d, t) => setBusy(`${Math.round((100 * d) / t)}%`),
      );
      const a = document.createElement('a');
      a.href = URL.createObjectURL(video);
      a.download = `demo-grating-seed${seed}.webm`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
    } catch (err) {
      notify('error', `The demo video could not be made: ${messageOf(err)}`);
    } finally {
      setBusy(null);
    }
  };
  return (
    <button className="text-xs text-sky-400 underline hover:text-sky-300" disabled={busy !== null} onClick={() => void make()}>
      {busy ? `Encoding demo video… ${busy}` : 'Download a generated demo video to try'}
    </button>
  );
}
