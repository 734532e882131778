// Chat roles and the special tokens of chat templates, as they appear in text meant to pass for a turn
// of the conversation: "Human:" / "Assistant:" (Anthropic's text format), "### System:" / "### Instruction:"
// (Alpaca-style), "[SYSTEM]", "[INST]" and "<<SYS>>" (Llama 2, Mistral), "<start_of_turn>" (Gemma),
// "<|system|>" (Zephyr, Phi), "<|start_header_id|>" (Llama 3), "<|im_start|>" (ChatML), "<|start|>…
// <|message|>" (OpenAI's harmony format), "<|prompter|>" (OpenAssistant). Ordinary developer text keeps
// "System:" (envinfo), "User: app" (connection settings) and "### System requirements".

export interface InjectionDetector { reason: string; re: RegExp }

const ROLES = String.raw`(?:SYSTEM|ASSISTANT|DEVELOPER|HUMAN)`;

export const TEMPLATE_DETECTORS: InjectionDetector[] = [
  // A line that speaks as a role in capitals ("SYSTEM: you must…"): envinfo's "System:" is title case.
  { reason: 'contains chat-role markers', re: new RegExp(String.raw`(^|\n)\s*[#>*\-[(]*\s*${ROLES}\s*[\])]?\s*:`) },
  // Anthropic's turn format, in title case: "\n\nHuman: …", "Assistant: …" at the start of a line.
  { reason: 'contains chat-role markers', re: /(^|\n)[ \t]*(?:Human|Assistant)[ \t]*:/ },
  // A Markdown heading or bold label that names a role or a prompt section and ends in a colon.
  { reason: 'contains chat-role markers', re: /(^|\n)[ \t]*#{1,6}[ \t]*(?:System|Assistant|Human|User|Developer|Instructions?|Response|Input)[ \t]*:|\*\*[ \t]*(?:System|Assistant|Human|Developer)[ \t]*:[ \t]*\*\*/ },
  // A role line followed by an order ("system: ignore…", "User: from here on, skip…").
  { reason: 'contains chat-role markers', re: /(^|\n)\s*(?:system|assistant|developer|user|human|ai)\s*:\s*(?:you|ignore|disregard|forget|from\s+(?:now|here)\s+on|new|always|never|do|run|execute|skip|approve|delete|push|merge|the\s+user)\b/i },
  // Bracketed roles in capitals: [SYSTEM], [ASSISTANT] (log levels such as [INFO] are not roles).
  { reason: 'contains chat-role markers', re: /\[(?:SYSTEM|System|ASSISTANT|Assistant|DEVELOPER|USER|SYS)\]/ },
  // Special tokens: any <|word|>, Gemma's turn tags, Llama 2's [INST] and <<SYS>>, Mistral's tool tags.
  { reason: 'contains chat-template markers', re: /<\|\s*\/?[A-Za-z][A-Za-z0-9_]{1,40}\s*\|>|<\/?(?:start|end)_of_turn>|\[\/?INST\]|<<\/?SYS>>|\[\/?(?:AVAILABLE_TOOLS|TOOL_CALLS|TOOL_RESULTS|SYSTEM_PROMPT)\]|<\/?\s*(?:system|system_prompt|instructions)\s*>/i },
];
