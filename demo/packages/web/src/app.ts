// A second scope: lessons recorded here are scoped to packages/web/**.
export function title(name: string): string {
  return `Welcome, ${name}`;
}
