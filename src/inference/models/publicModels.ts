/**
 * The public models the AI assists run, as the Models dialog lists them: what each is, how big, its
 * licence, where it comes from and how to get it. The download catalog itself lives with the
 * download script (scripts/fetch-models.ts, Node only); publicModels.test.ts keeps the two in step.
 * Licences as their publishers state them: segment-anything (Apache-2.0), SlimSAM's model cards
 * (Apache-2.0), OpenAI CLIP (MIT).
 */
import type { ModelFamily } from './manifest';

export interface PublicModel {
  /** The catalog id: `npm run models:fetch -- --only <id>`. */
  id: string;
  family: ModelFamily;
  name: string;
  /** What the app uses it for. */
  role: string;
  /** All files together, in decimal megabytes as the hosts show them. */
  sizeMb: number;
  licence: string;
  /** The page to download the files from by hand. */
  source: string;
  /** The files to pick in the Models dialog. */
  files: string[];
}

export const PUBLIC_MODELS: readonly PublicModel[] = [
  {
    id: 'slimsam-77',
    family: 'sam-transformersjs',
    name: 'SlimSAM-77',
    role: 'SAM click tool, proposals, propagation (smallest, fastest)',
    sizeMb: 40,
    licence: 'Apache-2.0',
    source: 'https://huggingface.co/Xenova/slimsam-77-uniform',
    files: ['onnx/vision_encoder.onnx', 'onnx/prompt_encoder_mask_decoder.onnx'],
  },
  {
    id: 'sam-vit-b-quant',
    family: 'sam-official',
    name: 'SAM ViT-B (int8)',
    role: 'SAM click tool, proposals, propagation (the original model, quantised)',
    sizeMb: 113,
    licence: 'Apache-2.0',
    source: 'https://github.com/wkentaro/labelme/releases/tag/sam-20230416',
    files: ['sam_vit_b_01ec64.quantized.encoder.onnx', 'sam_vit_b_01ec64.quantized.decoder.onnx'],
  },
  {
    id: 'clip-vit-b32',
    family: 'clip',
    name: 'CLIP ViT-B/32',
    role: 'state labels for proposals and pre-labelling (needs a SAM model too)',
    sizeMb: 608,
    licence: 'MIT',
    source: 'https://huggingface.co/Xenova/clip-vit-base-patch32',
    files: ['onnx/vision_model.onnx', 'onnx/text_model.onnx', 'tokenizer.json'],
  },
];
