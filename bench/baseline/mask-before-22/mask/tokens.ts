// Issue 22's baseline: mask/tokens.ts as it was before issue 22, for bench/mask.mjs only.
// Secrets recognisable by their own shape: a vendor prefix, a fixed length, a known alphabet. These
// need no surrounding words, so they are caught in prose, URLs, JSON and stack traces alike.
import type { Detector } from './detector';

export const TOKEN_DETECTORS: Detector[] = [
  // Cloud providers
  { kind: 'aws-access-key', re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  { kind: 'gcp-api-key', re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { kind: 'gcp-client-secret', re: /\bGOCSPX-[A-Za-z0-9_-]{20,40}(?![A-Za-z0-9_-])/g },
  { kind: 'azure-sas', hint: /sig=/, re: /[?&]sig=([A-Za-z0-9%+/=]{20,200})/g, group: 1 },
  { kind: 'azure-client-secret', hint: /\dQ~/, re: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g },
  { kind: 'vault-token', re: /\bhv[sbr]\.[A-Za-z0-9_-]{24,300}(?![A-Za-z0-9_-])/g },
  // Code hosts and chat
  { kind: 'github-token', re: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}\b/g },
  { kind: 'github-token', re: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g },
  { kind: 'gitlab-token', hint: /glpat-/, re: /\bglpat-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g },
  { kind: 'slack-token', hint: /xox/, re: /\bxox[abposre]-[A-Za-z0-9-]{10,}(?![A-Za-z0-9-])/g },
  { kind: 'slack-webhook', re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{10,}/g },
  { kind: 'discord-webhook', re: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d{5,}\/[A-Za-z0-9_-]{20,}/g },
  { kind: 'discord-token', hint: /[MNO][A-Za-z\d_-]{23,27}\./, re: /(?<![A-Za-z0-9_-])[MNO][A-Za-z\d_-]{23,27}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,38}(?![A-Za-z0-9_-])/g },
  { kind: 'telegram-token', hint: /:AA/, re: /(?<![\d:])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g },
  // AI, mail, messaging, commerce and payments
  { kind: 'anthropic-key', hint: /sk-ant-/, re: /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g },
  { kind: 'openai-key', hint: /sk-/, re: /\bsk-(?:proj-|svcacct-|admin-|None-)?(?=[A-Za-z0-9_-]{0,200}\d)[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g },
  { kind: 'huggingface-token', re: /\bhf_[A-Za-z0-9]{30,40}\b/g },
  { kind: 'sendgrid-key', re: /\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50}(?![A-Za-z0-9_-])/g },
  // Twilio: API key secrets are SK + 32 hex; an auth token is bare 32 hex, so it needs Twilio or
  // "auth token" (or the account SID) close before it. An MD5 elsewhere in a log stays.
  { kind: 'twilio-key', re: /\bSK[0-9a-f]{32}\b/g },
  { kind: 'twilio-auth-token', hint: /twilio|auth.?token|AC[0-9a-f]{32}/i, re: /(?:twilio|auth[ _-]?token|\bAC[0-9a-f]{32}\b)[^\n]{0,80}?(?<![0-9A-Za-z])([0-9a-f]{32})(?![0-9A-Za-z])/gi, group: 1 },
  { kind: 'shopify-token', re: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g },
  { kind: 'stripe-key', re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { kind: 'stripe-webhook-secret', re: /\bwhsec_[A-Za-z0-9]{24,}\b/g },
  // Package registries
  { kind: 'npm-token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'pypi-token', re: /\bpypi-AgE[A-Za-z0-9_-]{50,}/g },
  // Generic formats
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
];
