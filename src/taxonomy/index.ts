export * from './verbs';
export * from './osc';
