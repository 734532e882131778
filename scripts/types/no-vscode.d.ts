// tsconfig.core.json maps 'vscode' to this empty module: in src/core and src/store every use of a VS Code
// API is a type error ("has no exported member"), where the root config would resolve it. The build's
// layering check (scripts/layering.mjs) refuses even a bare `import 'vscode'` there.
export {};
