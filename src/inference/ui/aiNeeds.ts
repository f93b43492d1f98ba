/**
 * Why an AI action cannot run now, in words the toolbar shows next to it (a disabled button with no
 * reason reads as broken). Pure: the editor's panels pass what is loaded.
 */
export interface LoadedModels {
  sam: boolean;
  clip: boolean;
}

export type AiAction = 'proposals' | 'prelabel';

/** A short label for the toolbar ("needs SAM"), and the full sentence for the tooltip and screen readers. */
export interface AiNeed {
  short: string;
  reason: string;
}

export function aiActionNeed(action: AiAction, models: LoadedModels): AiNeed | null {
  const what = action === 'proposals' ? 'Proposals need' : 'Pre-labelling the clip needs';
  if (!models.sam && (action === 'proposals' || models.clip)) {
    return { short: 'needs SAM', reason: `${what} a SAM model, and none is loaded. Open Models to add one (the dialog lists the public ones and how to get them).` };
  }
  if (action === 'prelabel' && !models.sam) {
    return { short: 'needs SAM + CLIP', reason: `${what} a SAM model and a CLIP model (with its tokenizer.json), and neither is loaded. Open Models to add them (the dialog lists the public ones and how to get them).` };
  }
  if (action === 'prelabel' && !models.clip) {
    return { short: 'needs CLIP', reason: `${what} a CLIP model (with its tokenizer.json) for the state labels, and none is loaded. Open Models to add one.` };
  }
  return null;
}
