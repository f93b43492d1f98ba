/**
 * The WhereToChange taxonomy: the 10 verbs of the SPOC benchmark, the objects annotated with each
 * (seen in training vs novel), and the verb-specific annotation guidelines, paraphrased from the
 * SPOC annotation instructions. Source: ../../shared/spoc-taxonomy.md (WhereToChange-HowTo split).
 */
export const VERBS = [
  'chopping',
  'slicing',
  'mincing',
  'grating',
  'shredding',
  'mashing',
  'crushing',
  'peeling',
  'melting',
  'coating',
] as const;

export type Verb = (typeof VERBS)[number];

export interface VerbSpec {
  verb: Verb;
  /** What still counts as actionable for this verb. */
  actionableRule: string;
  /** What counts as transformed. */
  transformedRule: string;
  /** Verb-specific caveats shown in the guidelines panel. */
  notes: string[];
  /** Templates for the CLIP text prompts; `{noun}` is replaced by the object. */
  actionableTemplate: string;
  transformedTemplate: string;
  seen: readonly string[];
  novel: readonly string[];
}

const CHOP_ACT = 'Whole items and big pieces.';
const CHOP_TRF = 'Only small pieces, slices and rings.';
const GRATE_ACT = 'The whole or chunked piece still being grated.';
const GRATE_TRF = 'The grated bits.';
const MASH_ACT = 'Whole fruit and large chunks.';
const MASH_TRF = 'Mashed regions.';

export const VERB_SPECS: Record<Verb, VerbSpec> = {
  chopping: {
    verb: 'chopping',
    actionableRule: CHOP_ACT,
    transformedRule: CHOP_TRF,
    notes: ['A halved object is still actionable until it is cut smaller.', 'Hands and the knife are never labelled.'],
    actionableTemplate: 'whole {noun}',
    transformedTemplate: 'chopped {noun} pieces',
    seen: ['apple', 'avocado', 'bacon', 'banana', 'basil', 'broccoli', 'cabbage', 'carrot', 'celery', 'chicken', 'chili', 'chive', 'chocolate', 'cucumber', 'egg', 'garlic', 'ginger', 'jalapeno', 'leaf', 'lettuce', 'mango', 'mushroom', 'nut', 'onion', 'peanut', 'pecan', 'pepper', 'potato', 'scallion', 'shallot', 'strawberry', 'tomato', 'zucchini'],
    novel: ['almond', 'butter', 'capsicum', 'cauliflower', 'chilies', 'date', 'leek', 'pineapple', 'sausage'],
  },
  slicing: {
    verb: 'slicing',
    actionableRule: CHOP_ACT,
    transformedRule: CHOP_TRF,
    notes: ['As chopping: a halved object is still actionable.', 'Hands and the knife are never labelled.'],
    actionableTemplate: 'whole {noun}',
    transformedTemplate: 'sliced {noun}',
    seen: ['apple', 'avocado', 'bacon', 'banana', 'beef', 'bread', 'cabbage', 'cake', 'carrot', 'chicken', 'cucumber', 'egg', 'eggplant', 'ginger', 'leek', 'lemon', 'mango', 'meat', 'mushroom', 'onion', 'peach', 'pear', 'pepper', 'pineapple', 'potato', 'radish', 'sausage', 'scallion', 'shallot', 'steak', 'strawberry', 'tofu', 'tomato', 'watermelon', 'zucchini'],
    novel: ['butter', 'celery', 'jalapeno', 'lime', 'mozzarella', 'olive', 'orange', 'pepperoni'],
  },
  mincing: {
    verb: 'mincing',
    actionableRule: 'Whole items, big pieces and slices.',
    transformedRule: 'Only tiny pieces.',
    notes: ['Slices are an intermediate state: still actionable.'],
    actionableTemplate: 'whole {noun}',
    transformedTemplate: 'minced {noun}',
    seen: ['beef', 'cilantro', 'garlic', 'ginger', 'jalapeno', 'meat', 'onion', 'parsley', 'scallion', 'shallot'],
    novel: ['carrot', 'pepper', 'tomato'],
  },
  grating: {
    verb: 'grating',
    actionableRule: GRATE_ACT,
    transformedRule: GRATE_TRF,
    notes: ['The grater and other tools are never labelled.'],
    actionableTemplate: 'whole {noun}',
    transformedTemplate: 'grated {noun}',
    seen: ['apple', 'carrot', 'cheese', 'chocolate', 'cucumber', 'lemon', 'onion', 'orange', 'parmesan', 'potato', 'zucchini'],
    novel: ['butter', 'cauliflower', 'coconut', 'mozzarella'],
  },
  shredding: {
    verb: 'shredding',
    actionableRule: GRATE_ACT,
    transformedRule: 'The shredded bits.',
    notes: ['As grating: tools are never labelled.'],
    actionableTemplate: 'whole {noun}',
    transformedTemplate: 'shredded {noun}',
    seen: ['beef', 'cabbage', 'carrot', 'cheese', 'chicken', 'lettuce', 'meat', 'pork', 'potato', 'zucchini'],
    novel: ['coconut', 'mozzarella', 'parmesan'],
  },
  mashing: {
    verb: 'mashing',
    actionableRule: MASH_ACT,
    transformedRule: MASH_TRF,
    notes: ['Texture is the cue: chunky is actionable, smooth is transformed.'],
    actionableTemplate: 'whole {noun}',
    transformedTemplate: 'mashed {noun}',
    seen: ['avocado', 'banana', 'chickpea', 'garlic', 'potato', 'strawberry', 'tomato'],
    novel: ['egg'],
  },
  crushing: {
    verb: 'crushing',
    actionableRule: MASH_ACT,
    transformedRule: 'Crushed regions.',
    notes: ['As mashing: texture is the cue.'],
    actionableTemplate: 'whole {noun}',
    transformedTemplate: 'crushed {noun}',
    seen: ['biscuit', 'cooky', 'garlic', 'ginger', 'peanut', 'potato', 'strawberry', 'tomato'],
    novel: ['pepper'],
  },
  peeling: {
    verb: 'peeling',
    actionableRule: 'The unpeeled surface.',
    transformedRule: 'The peeled surface.',
    notes: ['Detached peel is neither state: leave it unlabelled.'],
    actionableTemplate: 'unpeeled {noun}',
    transformedTemplate: 'peeled {noun}',
    seen: ['apple', 'avocado', 'banana', 'beet', 'carrot', 'cucumber', 'egg', 'eggplant', 'garlic', 'ginger', 'lemon', 'mango', 'onion', 'orange', 'pear', 'plantain', 'potato', 'pumpkin', 'shrimp', 'squash', 'tomato', 'zucchini'],
    novel: ['kiwi', 'peach', 'pineapple', 'shallot'],
  },
  melting: {
    verb: 'melting',
    actionableRule: 'The solid, unmelted part.',
    transformedRule: 'The liquid or paste-like part.',
    notes: [],
    actionableTemplate: 'solid {noun}',
    transformedTemplate: 'melted {noun}',
    seen: ['butter', 'candy', 'caramel', 'gelatin', 'ghee', 'jaggery', 'margarine', 'marshmallow', 'shortening', 'sugar'],
    novel: [],
  },
  coating: {
    verb: 'coating',
    actionableRule: 'The plain, uncoated surface.',
    transformedRule: 'The surface covered by the coating.',
    notes: [
      'Tools are excluded unless visibly coated.',
      'A standalone container of the coating substance is not transformed.',
    ],
    actionableTemplate: 'plain {noun}',
    transformedTemplate: 'coated {noun}',
    seen: ['apple', 'bread', 'cake'],
    novel: [],
  },
};

/** Rules that hold for every verb (shown above the verb-specific notes). */
export const GENERAL_GUIDELINES: readonly string[] = [
  'Skim the whole clip before painting.',
  'Annotate every instance of the object, also ones that are never touched.',
  'Never label other objects, hands or tools.',
  'A frame may legitimately contain only one state, or none.',
  'State changes are irreversible: a region goes actionable to transformed, never back.',
];

export const IGNORE_REASONS = {
  not_visible: 'Object not visible',
  too_blurry: 'Too blurry',
  indistinguishable: 'States not distinguishable',
  mixed: 'Object mixed beyond recognition with other things',
  other: 'Other',
} as const;

export type IgnoreReason = keyof typeof IGNORE_REASONS;
