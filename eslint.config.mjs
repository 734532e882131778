// ESLint's config is in the tools/lint workspace, where its packages are installed (see that file).
export { default } from './tools/lint/eslint.config.mjs';
