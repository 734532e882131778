// Poisoning guard: memories come from error output, terminals, chat and team files, all of which a third
// party can write. Text that tries to instruct the agent is flagged; surfaces render flagged memories as
// quoted data and never as instructions (and trust.ts never promotes them to rules). Every field is read
// in the forms a model reads it (lookalikes.ts: look-alikes, invisible and TAG characters, leetspeak,
// spaced-out letters; poison/encoded.ts: base64), and each form goes through every detector: English and
// Korean here, chat templates in poison/templates.ts, the other languages in poison/languages.ts.
import type { Memory } from './types';
import { foldLeetspeak, foldLookalikes, hasTagCharacters, INVISIBLE_CHARS, joinSpacedLetters } from './lookalikes';
import { decodedBase64Texts } from './poison/encoded';
import { LANGUAGE_DETECTORS } from './poison/languages';
import { TEMPLATE_DETECTORS, type InjectionDetector } from './poison/templates';

// What an override names as the thing to drop ("the instructions above", "everything before").
const WHAT = String.raw`(instructions?|prompts?|rules|directions|context|guidelines|guidance)`;
const ALL = String.raw`(all\s+|any\s+|the\s+|your\s+|these\s+|those\s+|my\s+|of\s+)*`;
const DROP = String.raw`(ignore|disregard|forget|override|bypass|discard)`;
// The bare form ("ignore the instructions") needs words that only an agent is given: "ignore the messages,
// they are harmless" is ordinary advice.
const WHAT_BARE = String.raw`(instructions?|prompts?|guidelines|directions|rules)`;

const OWN_DETECTORS: InjectionDetector[] = [
  // English instruction overrides
  { reason: 'asks to ignore previous instructions', re: new RegExp(String.raw`\b${DROP}\s+${ALL}(previous|prior|above|earlier|preceding|former|original|system|initial)\s+${WHAT}`, 'i') },
  // "Ignore the instructions above", "disregard your instructions", "forget the rules you were given"
  { reason: 'asks to ignore previous instructions', re: new RegExp(String.raw`\b(ignore|disregard|forget)\s+(all\s+|the\s+|your\s+|these\s+|those\s+|of\s+|my\s+)+${WHAT_BARE}(\s+(above|before|so\s+far|you\s+(were|have\s+been)\s+given)|\s*[.,!;]|\s+and\b|$)`, 'i') },
  { reason: 'asks to ignore previous instructions', re: /\b(forget|disregard|ignore|discard)\s+(everything|all|whatever)\s+(you\b|above|prior|earlier|previous|said|written|i\s+said|before(\s+(this|now|here)\b|\s*[.,!;:]|\s*$))/i },
  { reason: 'tries to change the assistant\'s role', re: /\byou\s+are\s+now\s+(a|an|the|my|in|no\s+longer|free|unrestricted|jailbroken|dan)\b|\bfrom\s+now\s+on,?\s+(you|your)\b|\bact\s+as\s+(an?\s+)?(unrestricted|jailbroken|dan\b|developer\s+mode|root|admin)|\bpretend\s+(to\s+be|you\s+are)\b|\byour\s+new\s+(role|instructions?|persona)\b/i },
  { reason: 'mentions the system prompt', re: /\bsystem\s+prompt\b|\bsystem\s+message\b|\bdeveloper\s+message\b/i },
  { reason: 'announces new instructions', re: /\b(new|updated|important|real|actual|hidden)\s+instructions?\s*:|\binstructions?\s+for\s+(the\s+)?(ai|assistant|agent|model|copilot|llm)\b|\b(ai|assistant|agent|copilot|llm)\s*[,:]\s*(you\s+must|ignore|always|never)\b/i },
  { reason: 'asks to hide something from the user', re: /\b(do\s+not|don'?t|never)\s+(tell|inform|show|mention\s+(this\s+)?to|reveal\s+(this\s+)?to)\s+the\s+user\b/i },
  // Tool-call syntax smuggled into text
  { reason: 'contains tool-call syntax', re: /<\/?\s*(tool_call|tool_use|tool_result|function_call|function_calls|invoke|parameter|antml:[a-z_]+)\b[^>]*>/i },
  { reason: 'contains tool-call syntax', re: /\{\s*"(name|tool|function)"\s*:\s*"[^"]*"\s*,\s*"(arguments|parameters|args|input)"\s*:/i },
  { reason: 'contains tool-call syntax', re: /"type"\s*:\s*"(tool_use|tool_call|function_call|function)"/i },
  // VS Code command URIs run commands when a rendered link is clicked
  { reason: 'contains a command: link', re: /\]\(\s*<?\s*command:/i },
  { reason: 'contains a command: URI', re: /(^|[^\w-])command:_?[A-Za-z][\w-]*(\.[\w-]+)+/ },
  // Rendered markdown fetches images by itself: the URL can carry data out ("![](https://host/?d=…)").
  // A query string or a long opaque path segment is the carrier; a plain badge URL is not flagged.
  { reason: 'contains a remote image (can send data out when rendered)', re: /(!\[[^\]\n]{0,200}\]\(\s*<?\s*|<img\b[^>]{0,200}\bsrc\s*=\s*["']?\s*)(https?:)?\/\/[^\s)"'>?]{0,300}(\?|\/[A-Za-z0-9+_=%-]{24,})/i },
  // A link whose query string carries data out when followed: a template to fill ({…}, $(…), {{…}}), a
  // placeholder in capitals (SECRET_FROM_CONTEXT, PASTE_TOKEN_HERE) or a long opaque value. Inline,
  // reference-style, autolinks and HTML anchors alike; a docs link with ?tab=files or ?q=eslint does not.
  // A value the masker replaced («secret:…») was data in the link: the text is read masked as often as not.
  { reason: 'contains a link that can send data out', re: /(?:\]\(\s*<?|^\s*\[[^\]\n]{1,100}\]:\s*<?|<|\bhref\s*=\s*["']?)\s*(?:https?:)?\/\/[^\s)"'<>?]{1,300}\?[^\s)"'<>]*?=(?:[^\s)"'<>&]*(?:\{|\}|\$\(|\$\{)|«(?:secret:[\w-]+|email|phone)»|[A-Z][A-Z0-9]*_[A-Z0-9_]{2,}(?![a-z])|(?:SECRET|TOKEN|PASSWORD|APIKEY|API_KEY|DATA|ENV|CONTEXT|HISTORY|CONVERSATION)S?(?![a-z])|[A-Za-z0-9+/%_=]{24,})/m },
  // HTML comments are invisible when rendered but the model reads them; flag those that address it.
  { reason: 'hides text for the agent in an HTML comment', re: /<!--(?:(?!-->)[\s\S]){0,2000}?\b(assistant|ai|copilot|llm|claude|gpt|chatgpt|language\s+model|you\s+must|you\s+will|you\s+are\s+now)\b/i },
  // Korean instruction overrides
  { reason: 'asks to ignore previous instructions (Korean)', re: /(이전|앞의|앞선|위의|기존|지금까지의?|모든)\s*(의\s*)?(모든\s*)?(지시|지침|명령|규칙|프롬프트|instructions?)(사항)?\s*(을|를|은|는|들을|들은)?\s*(모두\s*|전부\s*|다\s*)?(무시|잊어|잊으)/ },
  // Looser form ("앞서 받은 지시사항은 무시해", "위 내용은 전부 잊고"): an earlier thing, then an imperative
  // to ignore or forget it. Passive endings ("무시됩니다", is ignored) are ordinary error text.
  { reason: 'asks to ignore previous instructions (Korean)', re: /(^|[^가-힣])(이전|앞서|앞에서|앞의|앞선|위|위의|위에서|기존|지금까지|여태)[^.\n]{0,20}?(지시|지침|명령|규칙|프롬프트|내용|말|대화)[^.\n]{0,12}?(무시\s*(해(?!도)|하고|하세요|하십시오|하라|해라|할\s*것)|잊(어|고|으세요|어라|어버려)|버려|취소해)/ },
  { reason: 'tries to change the assistant\'s role (Korean)', re: /(^|[\s"'(])(너는|넌|당신은|너|당신)\s*이제|(지금부터|이제부터|앞으로는?|오늘부터)\s*(너는|넌|당신은|너|당신|네\s*역할)/ },
  { reason: 'mentions the system prompt (Korean)', re: /시스템\s*(프롬프트|메시지|지시)/ },
  { reason: 'asks to hide something from the user (Korean)', re: /사용자(에게|한테)\s*(알리지|말하지|보여주지)\s*(마|말)/ },
];

const DETECTORS: InjectionDetector[] = [...OWN_DETECTORS, ...TEMPLATE_DETECTORS, ...LANGUAGE_DETECTORS];

// A tool call whose keys come in another order ({"arguments": {...}, "name": "run"}): an argument object
// and a tool name anywhere in the same text. launch.json's "args": [..] (an array) stays clean.
const TOOL_ARGS = /"(arguments|parameters|args|input|tool_input)"\s*:\s*("\s*)?\{/i;
const TOOL_NAME = /"(name|tool|function|tool_name|recipient_name)"\s*:\s*"[^"]{1,100}"/i;

// Zero-width and bidirectional controls hide text from the reader while the model still sees it; so do
// TAG characters (hasTagCharacters). A zero-width joiner inside an emoji sequence (👩‍💻) is not hiding anything.
const INVISIBLE = new RegExp(INVISIBLE_CHARS.source);
const EMOJI_ZWJ = /(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic})/gu;

// The data block's own markers (prompt.ts), read on folded text: "ΕND ENGRAM MEMORY DATA" with a Greek
// Ε is the same marker to a model.
export const DATA_MARKER = /(?:BEGIN|END)?[\s_-]*ENGRAM[\s_-]+MEMORY[\s_-]+DATA/i;

/** Reasons the text looks like an instruction to the agent; empty when clean. Deterministic. */
export function detectInjection(text: string): string[] {
  if (!text) return [];
  const reasons = new Set<string>();
  if (INVISIBLE.test(text.replace(EMOJI_ZWJ, '')) || hasTagCharacters(text)) reasons.add('contains invisible or bidirectional control characters');
  // Matched on what the model reads: full-width, Cyrillic/Greek look-alikes, hidden and TAG characters
  // folded to plain letters; then leetspeak read as letters, spaced-out letters joined, base64 decoded.
  const folded = foldLookalikes(text);
  const forms = new Set([folded, foldLeetspeak(folded), joinSpacedLetters(folded)]);
  for (const f of forms) scan(f, reasons);
  for (const decoded of decodedBase64Texts(folded)) {
    const inner = new Set<string>();
    scan(foldLookalikes(decoded), inner);
    if (inner.size) reasons.add('contains base64 that decodes to an instruction');
    for (const r of inner) reasons.add(r);
  }
  return [...reasons];
}

// Spaced-out letters with one separator between words as well ("i g n o r e p r e v i o u s …") join
// into one run; the English overrides are read in that run-together form too.
const COMPACT: InjectionDetector[] = [
  { reason: 'asks to ignore previous instructions', re: /(ignore|disregard|forget|override|bypass|discard)(all|any|the|your|these|those|my|of)*(previous|prior|above|earlier|preceding|former|original|system|initial)(instructions?|prompts?|rules|directions|context|guidelines)/i },
  { reason: 'asks to ignore previous instructions', re: /(ignore|disregard|forget)(all|the|your|these|those|my)*(instructions?|prompts?|rules|directions|guidelines)(above|before|sofar)|(forget|disregard|ignore|discard)(everything|all|whatever)(above|prior|earlier|previous|before|youweretold)/i },
  { reason: 'tries to change the assistant\'s role', re: /youarenow(a|an|the|my|in|no|free|unrestricted|jailbroken|dan)|fromnowon(you|your)|pretend(tobe|youare)|yournew(role|instructions?|persona)/i },
  { reason: 'mentions the system prompt', re: /systemprompt|systemmessage|developermessage/i },
];
const LONG_RUN = /[A-Za-z]{14,}/g;

function scan(f: string, reasons: Set<string>): void {
  for (const run of f.match(LONG_RUN) ?? []) for (const d of COMPACT) if (d.re.test(run)) reasons.add(d.reason);
  for (const d of DETECTORS) if (d.re.test(f)) reasons.add(d.reason);
  if (TOOL_ARGS.test(f) && TOOL_NAME.test(f)) reasons.add('contains tool-call syntax');
  if (DATA_MARKER.test(f)) reasons.add('imitates the memory data block markers');
}

/**
 * Every text field of a memory that reaches an agent: shown in chat, written to the instructions file
 * (scope becomes its `applyTo`), or returned by the tools. Ids and keys are checked by the import parser.
 */
export function memoryTexts(m: Memory): string[] {
  const base = [m.purpose ?? '', ...(m.tags ?? []), ...(m.scope ?? [])];
  switch (m.kind) {
    case 'lesson': return [...base, m.errorText, m.errorCategory, ...(m.stack ?? []), m.rootCause, m.fixApproach,
      m.check?.glob ?? '', m.check?.pattern ?? '', m.change ?? '', ...(m.commands ?? []), m.rule ?? '', m.notWhen ?? ''];
    case 'episode': return [...base, m.trigger, m.goal ?? '', m.domain ?? '', m.summary, m.resolution ?? '', ...(m.lessonsLearned ?? []),
      ...(m.toolsUsed ?? []), ...(m.files ?? []), m.codeBefore ?? '', m.codeAfter ?? '', m.fixAction ?? '',
      ...(m.steps ?? []).flatMap(s => [s.action, s.reasoning ?? '', s.result, s.detail ?? ''])];
    case 'fact': return [...base, m.content, m.topic ?? ''];
    case 'rule': return [...base, m.instruction];
  }
}

/**
 * Injection reasons across all of a memory's text (what the store sets as `flagged`). `read`: texts
 * whose reasons the caller already has (detectInjection depends on the text alone), skipped.
 */
export function detectMemoryInjection(m: Memory, read?: ReadonlySet<string>): string[] {
  const reasons = new Set<string>();
  for (const t of new Set(memoryTexts(m))) if (!read?.has(t)) for (const r of detectInjection(t)) reasons.add(r);
  return [...reasons];
}
