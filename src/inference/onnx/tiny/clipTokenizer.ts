/**
 * A toy CLIP tokenizer.json: the same structure as openai/clip-vit-base-patch32's (NFC + whitespace
 * + lowercase normaliser, CLIP's split regex + byte-level pre-tokenizer, BPE with "</w>" word ends,
 * <|startoftext|> 49406 / <|endoftext|> 49407 added by a RobertaProcessing post-processor) but with
 * a vocabulary of the 26 letters and a few dozen words, so it is a few KB and its ids stay below
 * TINY_TEXT_ROWS (the tiny text tower's one-hot width).
 *
 * Merges are generated so that every listed word encodes to ONE token: for each word we simulate
 * BPE with the merges so far and chain its resulting pieces left to right with new, higher-ranked
 * merges. Earlier words never see later merges fire (their own chain always has a lower rank), so
 * the construction is stable. A test checks this against the real @huggingface/tokenizers.
 */

export const CLIP_BOS = 49406;
export const CLIP_EOS = 49407;
export const CLIP_CONTEXT = 77;

/** Colour words map to the colour axes of the tiny CLIP towers (see tiny/clip.ts). */
export const TINY_COLOUR_WORDS = ['red', 'green', 'blue'] as const;

/** Words the toy vocabulary knows besides the colours (state prompts used in tests and the demo). */
export const TINY_WORDS = [
  'a', 'photo', 'of', 'the', 'whole', 'chopped', 'grated', 'peeled', 'sliced', 'mashed', 'melted',
  'pieces', 'avocado', 'carrot', 'apple', 'banana', 'tomato', 'potato', 'butter', 'cheese', 'bread',
  'object', 'background',
] as const;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('');

function applyBpe(symbols: string[], ranks: Map<string, number>): string[] {
  const parts = [...symbols];
  for (;;) {
    let best = -1;
    let bestRank = Infinity;
    for (let i = 0; i + 1 < parts.length; i++) {
      const r = ranks.get(`${parts[i]} ${parts[i + 1]}`);
      if (r !== undefined && r < bestRank) {
        bestRank = r;
        best = i;
      }
    }
    if (best < 0) return parts;
    parts.splice(best, 2, parts[best] + parts[best + 1]);
  }
}

export interface TinyTokenizerFiles {
  tokenizer: Record<string, unknown>;
  /** token string -> id, for the tiny text tower's weights. */
  vocab: Map<string, number>;
}

export function buildTinyClipTokenizer(words: readonly string[] = [...TINY_COLOUR_WORDS, ...TINY_WORDS]): TinyTokenizerFiles {
  const vocab = new Map<string, number>();
  const add = (tok: string) => {
    if (!vocab.has(tok)) vocab.set(tok, vocab.size);
  };
  for (const c of LETTERS) add(c);
  for (const c of LETTERS) add(`${c}</w>`);
  const merges: string[] = [];
  const ranks = new Map<string, number>();
  for (const word of words) {
    if (!/^[a-z]+$/.test(word)) throw new Error(`tiny tokenizer: "${word}" must be lowercase a-z`);
    const chars = word.split('').map((c, i) => (i === word.length - 1 ? `${c}</w>` : c));
    let acc = '';
    for (const piece of applyBpe(chars, ranks)) {
      if (acc !== '') {
        const pair = `${acc} ${piece}`;
        if (!ranks.has(pair)) {
          ranks.set(pair, merges.length);
          merges.push(pair);
        }
        add(acc + piece);
      }
      acc += piece;
    }
  }
  const tokenVocab: Record<string, number> = Object.fromEntries(vocab);
  tokenVocab['<|startoftext|>'] = CLIP_BOS;
  tokenVocab['<|endoftext|>'] = CLIP_EOS;
  const special = (id: number, content: string) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: true, special: true });
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(CLIP_BOS, '<|startoftext|>'), special(CLIP_EOS, '<|endoftext|>')],
    normalizer: {
      type: 'Sequence',
      normalizers: [{ type: 'NFC' }, { type: 'Replace', pattern: { Regex: '\\s+' }, content: ' ' }, { type: 'Lowercase' }],
    },
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [
        {
          type: 'Split',
          pattern: { Regex: "<\\|startoftext\\|>|<\\|endoftext\\|>|'s|'t|'re|'ve|'m|'ll|'d|[\\p{L}]+|[\\p{N}]|[^\\s\\p{L}\\p{N}]+" },
          behavior: 'Removed',
          invert: true,
        },
        { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
      ],
    },
    post_processor: {
      type: 'RobertaProcessing',
      sep: ['<|endoftext|>', CLIP_EOS],
      cls: ['<|startoftext|>', CLIP_BOS],
      trim_offsets: false,
      add_prefix_space: false,
    },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: '<|endoftext|>',
      continuing_subword_prefix: '',
      end_of_word_suffix: '</w>',
      fuse_unk: false,
      byte_fallback: false,
      vocab: tokenVocab,
      merges,
    },
  };
  return { tokenizer, vocab };
}
