// The shape of a translator, so wording that core owns can be rendered in the UI language by the host
// (vscode.l10n.t) and in English by the CLI and MCP. Messages use vscode.l10n's "{0}" placeholders and
// are the English text itself, which is also the key in l10n/bundle.l10n.*.json.

export type Translate = (message: string, ...args: (string | number)[]) => string;

/** Fills "{0}", "{1}", ... with the arguments; an index without an argument stays as written. */
export function formatMessage(message: string, args: readonly (string | number)[]): string {
  return message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
}

/** The English wording: the message as written, placeholders filled. */
export const english: Translate = (message, ...args) => formatMessage(message, args);

/** A translator from a bundle (English → translation), English for what it lacks. */
export function fromBundle(bundle: Readonly<Record<string, string>> | undefined): Translate {
  return (message, ...args) => {
    // Own keys only: a message such as "constructor" must not find Object's.
    const hit = bundle && Object.prototype.hasOwnProperty.call(bundle, message) ? bundle[message] : undefined;
    return formatMessage(typeof hit === 'string' && hit ? hit : message, args);
  };
}
