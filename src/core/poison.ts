// Poisoning guard: memories come from error output, terminals, chat and team files, all of which a third
// party can write. Text that tries to instruct the agent is flagged; surfaces render flagged memories as
// quoted data and never as instructions (and trust.ts never promotes them to rules).
import type { Memory } from './types';

interface Detector { reason: string; re: RegExp }

const DETECTORS: Detector[] = [
  // English instruction overrides
  { reason: 'asks to ignore previous instructions', re: /\b(ignore|disregard|forget|override|bypass)\s+(all\s+|any\s+|the\s+|your\s+|these\s+)*(previous|prior|above|earlier|preceding|former|existing|original|system)\s+(instructions?|prompts?|rules|directions|messages|context|guidelines)/i },
  { reason: 'asks to ignore previous instructions', re: /\bforget\s+(everything|all)\s+(you|that|above|before)/i },
  { reason: 'tries to change the assistant\'s role', re: /\byou\s+are\s+now\s+(a|an|the|my|in|no\s+longer|free|unrestricted|jailbroken|dan)\b|\bfrom\s+now\s+on,?\s+you\s+(are|will|must)\b|\bact\s+as\s+(an?\s+)?(unrestricted|jailbroken|dan\b|developer\s+mode)|\bpretend\s+(to\s+be|you\s+are)\b/i },
  { reason: 'mentions the system prompt', re: /\bsystem\s+prompt\b|\bsystem\s+message\b|\bdeveloper\s+message\b/i },
  { reason: 'contains chat-template markers', re: /<\|(im_start|im_end|system|user|assistant|endoftext)\|>|\[\/?INST\]|<<\/?SYS>>/i },
  { reason: 'announces new instructions', re: /\bnew\s+instructions?\s*:|\bimportant\s+instructions?\s*:|\binstructions?\s+for\s+(the\s+)?(ai|assistant|agent|model|copilot)\b/i },
  { reason: 'asks to hide something from the user', re: /\b(do\s+not|don'?t|never)\s+(tell|inform|show|mention\s+(this\s+)?to)\s+the\s+user\b/i },
  // Tool-call syntax smuggled into text
  { reason: 'contains tool-call syntax', re: /<\/?\s*(tool_call|tool_use|tool_result|function_call|function_calls|invoke|parameter)\b[^>]*>/i },
  { reason: 'contains tool-call syntax', re: /\{\s*"(name|tool|function)"\s*:\s*"[^"]*"\s*,\s*"(arguments|parameters|args|input)"\s*:/i },
  // VS Code command URIs run commands when a rendered link is clicked
  { reason: 'contains a command: link', re: /\]\(\s*<?\s*command:/i },
  { reason: 'contains a command: URI', re: /(^|[^\w-])command:_?[A-Za-z][\w-]*(\.[\w-]+)+/ },
  // Korean instruction overrides
  { reason: 'asks to ignore previous instructions (Korean)', re: /(이전|앞의|앞선|위의|기존|지금까지의?|모든)\s*(의\s*)?(모든\s*)?(지시|지침|명령|규칙|프롬프트|instructions?)(사항)?\s*(을|를|은|는|들을|들은)?\s*(모두\s*|전부\s*|다\s*)?(무시|잊어|잊으)/ },
  { reason: 'tries to change the assistant\'s role (Korean)', re: /(^|[\s"'(])(너는|넌|당신은|너|당신)\s*이제/ },
  { reason: 'mentions the system prompt (Korean)', re: /시스템\s*(프롬프트|메시지|지시)/ },
  { reason: 'asks to hide something from the user (Korean)', re: /사용자(에게|한테)\s*(알리지|말하지|보여주지)\s*(마|말)/ },
];

// Zero-width and bidirectional controls hide text from the reader while the model still sees it.
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u180E]/;

/** Reasons the text looks like an instruction to the agent; empty when clean. Deterministic. */
export function detectInjection(text: string): string[] {
  if (!text) return [];
  const reasons = new Set<string>();
  if (INVISIBLE.test(text)) reasons.add('contains invisible or bidirectional control characters');
  // NFKC folds full-width look-alikes (ｉｇｎｏｒｅ) onto ASCII before matching.
  const folded = text.normalize('NFKC').replace(/[\u200B-\u200F\u2060-\u2064\uFEFF\u00AD]/g, '');
  for (const d of DETECTORS) if (d.re.test(folded)) reasons.add(d.reason);
  return [...reasons];
}

/** Every free-text field of a memory that surfaces may show or inject. */
export function memoryTexts(m: Memory): string[] {
  const base = [m.purpose ?? '', ...m.tags];
  switch (m.kind) {
    case 'lesson': return [...base, m.errorText, m.rootCause, m.fixApproach, m.check?.pattern ?? ''];
    case 'episode': return [...base, m.trigger, m.goal ?? '', m.summary, m.resolution ?? '', ...m.lessonsLearned,
      ...m.steps.flatMap(s => [s.action, s.reasoning ?? '', s.result, s.detail ?? ''])];
    case 'fact': return [...base, m.content, m.topic ?? ''];
    case 'rule': return [...base, m.instruction];
  }
}

/** Injection reasons across all of a memory's text (what the store sets as `flagged`). */
export function detectMemoryInjection(m: Memory): string[] {
  const reasons = new Set<string>();
  for (const t of memoryTexts(m)) for (const r of detectInjection(t)) reasons.add(r);
  return [...reasons];
}
