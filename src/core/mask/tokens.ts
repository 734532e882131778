// Secrets recognisable by their own shape: a vendor prefix, a fixed length, a known alphabet. These
// need no surrounding words, so they are caught in prose, URLs, JSON and stack traces alike.
import type { Detector } from './detector';

export const TOKEN_DETECTORS: Detector[] = [
  // Cloud providers
  { kind: 'azure-sas', hint: /sig=/, re: /[?&]sig=([A-Za-z0-9%+/=]{20,200})/g, group: 1 },
  { kind: 'azure-client-secret', hint: /\dQ~/, re: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g },
  // Code hosts and chat
  { kind: 'gitlab-token', hint: /glpat-/, re: /\bglpat-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g },
  { kind: 'slack-token', hint: /xox/, re: /\bxox[abposre]-[A-Za-z0-9-]{10,}(?![A-Za-z0-9-])/g },
  { kind: 'slack-webhook', hint: /hooks\.slack\.com/, re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{10,}/g },
  { kind: 'discord-webhook', hint: /discord/, re: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d{5,}\/[A-Za-z0-9_-]{20,}/g },
  { kind: 'discord-token', hint: /[MNO][A-Za-z\d_-]{23,27}\./, re: /(?<![A-Za-z0-9_-])[MNO][A-Za-z\d_-]{23,27}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,38}(?![A-Za-z0-9_-])/g },
  { kind: 'telegram-token', hint: /:AA/, re: /(?<![\d:])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g },
  // AI, mail, messaging, commerce and payments
  { kind: 'anthropic-key', hint: /sk-ant-/, re: /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g },
  { kind: 'openai-key', hint: /sk-/, re: /\bsk-(?:proj-|svcacct-|admin-|None-)?(?=[A-Za-z0-9_-]{0,200}\d)[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g },
  // Twilio: API key secrets are SK + 32 hex; an auth token is bare 32 hex, so it needs Twilio or
  // "auth token" (or the account SID) close before it. An MD5 elsewhere in a log stays.
  { kind: 'twilio-auth-token', hint: /twilio|auth.?token|AC[0-9a-f]{32}/i, re: /(?:twilio|auth[ _-]?token|\bAC[0-9a-f]{32}\b)[^\n]{0,80}?(?<![0-9A-Za-z])([0-9a-f]{32})(?![0-9A-Za-z])/gi, group: 1 },
  // Package registries
  // Generic formats
];

/**
 * Provider tokens that begin with a fixed prefix, after the gitleaks rule set (the reference the field
 * uses; no maintained npm package ships it, see the README's Privacy section). One pass finds every
 * prefix (TOKEN_PREFIX) and only there is the token's own shape checked, so fifty families cost one
 * scan of the text instead of fifty. `back`: characters of the token that come before its prefix.
 */
export interface PrefixedToken { kind: string; prefix: string; re: RegExp; back?: number }

const T = (kind: string, prefix: string, body: string, back = 0): PrefixedToken => ({ kind, prefix, re: new RegExp(body, 'y'), back });
export const PREFIXED_TOKENS: PrefixedToken[] = [
  // The long-known families, in the same scan (each was a pass over the text of its own).
  ...['AKIA', 'ASIA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'ABIA', 'ACCA'].map(p => T('aws-access-key', p, String.raw`${p}[A-Z0-9]{16}\b`)),
  T('gcp-api-key', 'AIza', String.raw`AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`),
  T('gcp-client-secret', 'GOCSPX-', String.raw`GOCSPX-[A-Za-z0-9_-]{20,40}(?![A-Za-z0-9_-])`),
  ...['hvs.', 'hvb.', 'hvr.'].map(p => T('vault-token', p, String.raw`${p.replace('.', '\\.')}[A-Za-z0-9_-]{24,300}(?![A-Za-z0-9_-])`)),
  ...['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'].map(p => T('github-token', p, String.raw`${p}[A-Za-z0-9]{36,255}\b`)),
  T('github-token', 'github_pat_', String.raw`github_pat_[A-Za-z0-9_]{22,255}\b`),
  T('huggingface-token', 'hf_', String.raw`hf_[A-Za-z0-9]{30,40}\b`),
  T('sendgrid-key', 'SG.', String.raw`SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50}(?![A-Za-z0-9_-])`),
  T('twilio-key', 'SK', String.raw`SK[0-9a-f]{32}\b`),
  ...['shpat_', 'shpca_', 'shppa_', 'shpss_'].map(p => T('shopify-token', p, String.raw`${p}[a-fA-F0-9]{32}\b`)),
  ...['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'].map(p => T('stripe-key', p, String.raw`${p}[A-Za-z0-9]{16,}\b`)),
  T('stripe-webhook-secret', 'whsec_', String.raw`whsec_[A-Za-z0-9]{24,}\b`),
  T('npm-token', 'npm_', String.raw`npm_[A-Za-z0-9]{36}\b`),
  T('pypi-token', 'pypi-AgE', String.raw`pypi-AgE[A-Za-z0-9_-]{50,}`),
  T('jwt', 'eyJ', String.raw`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`),
  T('google-oauth-token', 'ya29.', String.raw`ya29\.[\w-]{30,2000}(?![\w-])`),
  T('mailgun-key', 'key-', String.raw`key-[0-9a-f]{32}(?![0-9A-Za-z])`),
  T('supabase-token', 'sbp_', String.raw`sbp_[a-f0-9]{40}(?![0-9A-Za-z])`),
  T('supabase-token', 'sb_secret_', String.raw`sb_secret_[\w-]{20,100}`),
  T('newrelic-key', 'NRAK-', String.raw`NRAK-[A-Z0-9]{27}(?![A-Za-z0-9])`),
  T('newrelic-key', 'NRII-', String.raw`NRII-[\w-]{32}(?![\w-])`),
  T('grafana-token', 'glsa_', String.raw`glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}(?![A-Za-z0-9])`),
  T('grafana-token', 'glc_', String.raw`glc_[A-Za-z0-9+/]{32,400}={0,2}`),
  ...['glrt-', 'glptt-', 'gldt-', 'glft-', 'glsoat-', 'glcbt-', 'glimt-', 'glagent-', 'GR1348941'].map(p => T('gitlab-token', p, String.raw`${p}[\w-]{20,}`)),
  ...['dop_v1_', 'doo_v1_', 'dor_v1_'].map(p => T('digitalocean-token', p, String.raw`${p}[a-f0-9]{64}(?![a-f0-9])`)),
  T('age-secret-key', 'AGE-SECRET-KEY-1', String.raw`AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`),
  T('linear-key', 'lin_api_', String.raw`lin_api_[A-Za-z0-9]{40}(?![A-Za-z0-9])`),
  T('linear-key', 'lin_oauth_', String.raw`lin_oauth_[a-f0-9]{64}`),
  T('atlassian-token', 'ATATT3', String.raw`ATATT3[A-Za-z0-9_\-=]{150,300}`),
  T('bitbucket-token', 'ATBB', String.raw`ATBB[A-Za-z0-9_=.-]{32,}`),
  ...['pscale_tkn_', 'pscale_pw_', 'pscale_oauth_'].map(p => T('planetscale-token', p, String.raw`${p}[\w=.-]{32,64}`)),
  ...['dp.pt.', 'dp.st.', 'dp.sa.', 'dp.ct.', 'dp.scim.', 'dp.audit.'].map(p => T('doppler-token', p, String.raw`${p.replace(/\./g, '\\.')}[A-Za-z0-9]{40,44}(?![A-Za-z0-9])`)),
  T('postman-key', 'PMAK-', String.raw`PMAK-[a-f0-9]{24}-[a-f0-9]{34}`),
  T('pulumi-token', 'pul-', String.raw`pul-[a-f0-9]{40}(?![a-f0-9])`),
  T('terraform-token', '.atlasv1.', String.raw`[A-Za-z0-9]{14}\.atlasv1\.[\w=-]{60,70}`, 14),
  T('sentry-token', 'sntrys_', String.raw`sntrys_eyJ[\w=+/-]{20,}`),
  T('sentry-token', 'sntryu_', String.raw`sntryu_[a-f0-9]{64}`),
  T('databricks-token', 'dapi', String.raw`dapi[a-f0-9]{32}(?:-\d)?(?![a-f0-9])`),
  T('figma-token', 'figd_', String.raw`figd_[\w-]{40}`),
  T('notion-token', 'ntn_', String.raw`ntn_[A-Za-z0-9]{40,50}(?![A-Za-z0-9])`),
  T('notion-token', 'secret_', String.raw`secret_[A-Za-z0-9]{43}(?![A-Za-z0-9])`),
  T('flyio-token', 'fo1_', String.raw`fo1_[\w-]{43}`),
  ...['fm1a_', 'fm1r_', 'fm2_'].map(p => T('flyio-token', p, String.raw`${p}[A-Za-z0-9+/]{100,}={0,3}`)),
  T('buildkite-token', 'bkua_', String.raw`bkua_[a-f0-9]{40}`),
  T('contentful-token', 'CFPAT-', String.raw`CFPAT-[\w-]{43}`),
  T('replicate-token', 'r8_', String.raw`r8_[A-Za-z0-9]{37}(?![A-Za-z0-9])`),
  T('groq-key', 'gsk_', String.raw`gsk_[A-Za-z0-9]{52}(?![A-Za-z0-9])`),
  T('square-token', 'sq0csp-', String.raw`sq0csp-[\w-]{43}`),
  T('square-token', 'sq0atp-', String.raw`sq0atp-[\w-]{22}`),
  T('square-token', 'EAAA', String.raw`EAAA[\w-]{60}(?![\w-])`),
  T('1password-token', 'ops_eyJ', String.raw`ops_eyJ[\w+/-]{100,}={0,3}`),
  T('alibaba-key', 'LTAI', String.raw`LTAI[A-Za-z0-9]{20}(?![A-Za-z0-9])`),
  T('tencent-key', 'AKID', String.raw`AKID[A-Za-z0-9]{32}(?![A-Za-z0-9])`),
  T('dropbox-token', 'sl.', String.raw`sl\.(?:u\.)?[\w=-]{130,}`),
  T('dockerhub-token', 'dckr_pat_', String.raw`dckr_pat_[\w-]{27}`),
  T('netlify-token', 'nfp_', String.raw`nfp_[A-Za-z0-9]{36}(?![A-Za-z0-9])`),
  T('render-token', 'rnd_', String.raw`rnd_[A-Za-z0-9]{32}(?![A-Za-z0-9])`),
  T('mapbox-token', 'sk.eyJ', String.raw`sk\.eyJ[\w.-]{60,}`),
  T('huggingface-token', 'api_org_', String.raw`api_org_[A-Za-z]{34}(?![A-Za-z])`),
  T('xai-key', 'xai-', String.raw`xai-[A-Za-z0-9]{80}(?![A-Za-z0-9])`),
  T('perplexity-key', 'pplx-', String.raw`pplx-[A-Za-z0-9]{48}(?![A-Za-z0-9])`),
  T('slack-token', 'xapp-', String.raw`xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+`),
  T('tailscale-key', 'tskey-', String.raw`tskey-(?:api|auth|client|webhook)-[A-Za-z0-9]{8,}-[A-Za-z0-9]{16,}`),
  T('heroku-key', 'HRKU-', String.raw`HRKU-[\w-]{60}`),
  ...['shippo_live_', 'shippo_test_'].map(p => T('shippo-token', p, String.raw`${p}[a-fA-F0-9]{40}(?![A-Za-z0-9])`)),
  T('typeform-token', 'tfp_', String.raw`tfp_[\w-]{59,64}`),
  T('readme-key', 'rdme_', String.raw`rdme_[a-z0-9]{70}(?![a-z0-9])`),
  T('flutterwave-key', 'FLWSECK', String.raw`FLWSECK(?:_TEST)?-[a-h0-9]{32}-X`),
  T('easypost-key', 'EZAK', String.raw`EZAK[A-Za-z0-9]{54}(?![A-Za-z0-9])`),
  T('adafruit-key', 'aio_', String.raw`aio_[A-Za-z0-9]{28}(?![A-Za-z0-9])`),
  T('prefect-token', 'pnu_', String.raw`pnu_[A-Za-z0-9]{36}(?![A-Za-z0-9])`),
  T('scalingo-token', 'tk-us-', String.raw`tk-us-[\w-]{48}`),
  T('clojars-token', 'CLOJARS_', String.raw`CLOJARS_[a-z0-9]{60}(?![a-z0-9])`),
  T('frameio-token', 'fio-u-', String.raw`fio-u-[\w=-]{64}`),
];

const BY_PREFIX = new Map<string, PrefixedToken[]>();
for (const t of PREFIXED_TOKENS) BY_PREFIX.set(t.prefix, [...(BY_PREFIX.get(t.prefix) ?? []), t]);
/** The prefixes as a trie-shaped alternation: V8 tries far fewer branches per position than on a flat list. */
function trie(words: string[]): string {
  const esc = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const byHead = new Map<string, string[]>();
  let ends = false;
  for (const w of words) { if (!w) { ends = true; continue; } byHead.set(w[0], [...(byHead.get(w[0]) ?? []), w.slice(1)]); }
  const alts = [...byHead.entries()].map(([c, rest]) => esc(c) + trie(rest));
  if (!alts.length) return '';
  const body = alts.length === 1 && !ends ? alts[0] : `(?:${alts.join('|')})`;
  return ends ? `${body}?` : body;
}
export const TOKEN_PREFIX = new RegExp(trie([...BY_PREFIX.keys()]), 'g');

/** Every prefixed provider token in `text`, as [start, end, kind]. */
export function findPrefixedTokens(text: string, add: (start: number, end: number, kind: string) => void): void {
  TOKEN_PREFIX.lastIndex = 0;
  for (let m = TOKEN_PREFIX.exec(text); m; m = TOKEN_PREFIX.exec(text)) {
    for (const t of BY_PREFIX.get(m[0]) ?? []) {
      const at = m.index - (t.back ?? 0);
      // A token starts at a word boundary (key- inside monkey-patch is not Mailgun's).
      if (at < 0 || /[A-Za-z0-9_]/.test(text[at - 1] ?? '')) continue;
      t.re.lastIndex = at;
      const hit = t.re.exec(text);
      if (!hit) continue;
      add(at, at + hit[0].length, t.kind);
      TOKEN_PREFIX.lastIndex = Math.max(TOKEN_PREFIX.lastIndex, at + hit[0].length);
      break;
    }
  }
}
