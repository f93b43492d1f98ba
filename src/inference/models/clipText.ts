/**
 * CLIP text encoding: a user-supplied tokenizer.json (the CLIP BPE) read by @huggingface/tokenizers,
 * then CLIP's fixed context: <|startoftext|> ... <|endoftext|>, truncated to 77 tokens with the end
 * token kept last, padded to 77. The pad id is the tokenizer config's pad_token when given, else
 * <|endoftext|> (what Hugging Face's openai/clip-* configs use; CLIP pools at the first end token,
 * so pad ids after it do not change the embedding).
 */
import { Tokenizer } from '@huggingface/tokenizers';

export const CLIP_CONTEXT_LENGTH = 77;
export const CLIP_BOS_ID = 49406;
export const CLIP_EOS_ID = 49407;

export interface ClipTokens {
  /** length CLIP_CONTEXT_LENGTH. */
  ids: number[];
  /** 1 for real tokens (including start/end), 0 for padding. */
  attentionMask: number[];
  /** True when the text was cut to fit. */
  truncated: boolean;
}

export interface ClipTokenizer {
  encode(text: string): ClipTokens;
  readonly bosId: number;
  readonly eosId: number;
  readonly padId: number;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function tokenContent(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (isObject(v) && typeof v.content === 'string') return v.content;
  return undefined;
}

/**
 * Builds the tokenizer from parsed tokenizer.json (and optionally tokenizer_config.json) contents.
 * Throws a clear error when the JSON is not a tokenizer at all.
 */
export function createClipTokenizer(tokenizerJson: unknown, tokenizerConfig: unknown = {}, contextLength = CLIP_CONTEXT_LENGTH): ClipTokenizer {
  if (!isObject(tokenizerJson) || !isObject(tokenizerJson.model)) {
    throw new Error('tokenizer.json: not a Hugging Face tokenizer file (no "model" object)');
  }
  const config = isObject(tokenizerConfig) ? tokenizerConfig : {};
  let tok: Tokenizer;
  try {
    tok = new Tokenizer(tokenizerJson, config);
  } catch (e) {
    throw new Error(`tokenizer.json: cannot be read (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  const bosId = tok.token_to_id('<|startoftext|>') ?? CLIP_BOS_ID;
  const eosId = tok.token_to_id('<|endoftext|>') ?? CLIP_EOS_ID;
  const padToken = tokenContent(config.pad_token);
  const padId = (padToken !== undefined ? tok.token_to_id(padToken) : undefined) ?? eosId;

  function encode(text: string): ClipTokens {
    const raw = tok.encode(text).ids;
    // Some tokenizer files carry no post-processor; make the start/end tokens explicit either way.
    const body = raw.slice(raw[0] === bosId ? 1 : 0, raw.length > 0 && raw[raw.length - 1] === eosId ? -1 : undefined);
    const room = contextLength - 2;
    const truncated = body.length > room;
    const ids = [bosId, ...body.slice(0, room), eosId];
    const attentionMask = ids.map(() => 1);
    while (ids.length < contextLength) {
      ids.push(padId);
      attentionMask.push(0);
    }
    return { ids, attentionMask, truncated };
  }

  return { encode, bosId, eosId, padId };
}
