// Numbers as the CLI's text output writes them.
export function round(x: number): number { return Math.round(x * 1000) / 1000; }
export function pct(x: number): string { return `${Math.round(x * 100)}%`; }
export function firstLine(s: string): string { return s.split('\n').find(l => l.trim())?.trim().slice(0, 120) ?? ''; }
