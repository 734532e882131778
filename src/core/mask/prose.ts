// Passwords, secrets and tokens named in prose, in the ten most common languages of developers besides
// the English and Korean password forms of passwords.ts: "数据库密码是 …", "パスワードは … です",
// "la contraseña es …", "a senha do banco é …", "Das Passwort ist …", "le mot de passe est …",
// "пароль: …", "पासवर्ड … है", "the client secret is …", "배포 토큰은 … 입니다". The word names the secret;
// the value must still look like one (passwordLike, or a token: long, letters and digits), so "密码错误",
// "Das Passwort ist falsch" or "the token is expired" stay as they are.
import { looksHighEntropy } from './entropy';
import { notPlaceholder, passwordLike, type Detector } from './detector';

// A value in text of any script: quoted, or a run of printable ASCII (the run ends where the sentence's
// own script or punctuation starts again: "…是 Xk9#mQ2p，别提交", "APIトークン：Xk9…（期限切れ）").
const VALUE = String.raw`(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|\x60([^\x60\n]{1,200})\x60|([\x21\x23-\x26\x28-\x5f\x61-\x7e]{1,200}))`;
const pick = (m: RegExpExecArray) => (m[1] ?? m[2] ?? m[3] ?? m[4]?.replace(/[.,;:)\]}!?]+$/, ''));

/** A token or key: long, letters and digits, random-looking or a long hex run (not a word or a path). */
export function tokenLike(v: string): boolean {
  if (v.length < 16 || v.length > 500 || !/^[\x21-\x7e]+$/.test(v) || !notPlaceholder(v)) return false;
  if (/:\/\/|^[~./]/.test(v)) return false;
  return looksHighEntropy(v) || /^[0-9a-f]{32,}$/i.test(v) || (passwordLike(v) && /\d/.test(v) && /[A-Z]/.test(v) && /[a-z]/.test(v));
}
const secretValue = (v: string) => passwordLike(v) || tokenLike(v);
// One hint per family of keywords.
const LATIN_WORDS = /contrase|clave|secreto|senha|palavra-passe|segredo|chave|passwort|kennwort|schlüssel|geheimnis|mot de passe|jeton|clé|clef/i;
const EN_WORDS = /secret|token|key/i;
const pick2 = (m: RegExpExecArray) => (m[2] ?? m[3] ?? m[4] ?? m[5]?.replace(/[.,;:)\]}!?]+$/, ''));
const KEY_QUALIFIER = /(?:client|api|app|application|access|auth|deploy|service|service[ -]account|signing|master|private|license|webhook|refresh|secret|datadog|stripe|openai)[ \t-]+$/i;

// "… for the staging db", "de la base de datos", "für den Staging-Server", "от базы": up to a few words
// between the word and its verb.
const words = (preps: string, n = 3) => String.raw`(?:\s+(?:${preps})(?:\s+[^\s:=：]{1,30}){0,${n}}?)?`;
// Without the u flag where the keywords are Latin: unicode-mode regexes cost several times more here.
const re = (body: string, flags = 'gi') => new RegExp(body, flags);
/** A word start for Latin-script keywords (\b knows only ASCII letters: "contraseña", "clé"). */
const B = String.raw`(?<![A-Za-z0-9_\u00C0-\u024F])`;

/** Keywords in scripts other than Latin: run only on text that holds a non-ASCII character. */
export const NON_LATIN_PROSE_DETECTORS: Detector[] = [
  // Chinese and Japanese: 密码/令牌/パスワード/トークン, a particle or colon, the value.
  { kind: 'password', hint: /密码|密碼|口令|密钥|密鑰|秘钥|令牌|パスワード|暗証番号|トークン|シークレット|キー/, re: re(String.raw`(?:密码|密碼|口令|密钥|密鑰|秘钥|令牌|パスワード|暗証番号|トークン|シークレット|アクセスキー|API\s?キー)(?:\s*(?:是|为|為|は|が|:|：|=|＝)\s*|\s+)${VALUE}`, 'g'), pick, accept: secretValue },
  // Russian
  // (a genitive names whose secret it is without a preposition: "токен доступа: X", "пароль базы: X")
  { kind: 'password', hint: /пароль|токен|секрет|ключ/i, re: re(String.raw`(?<![\u0400-\u04FF])(?:пароль|токен|секрет|ключ(?:\s+api)?)(?:${words('от|для|к|у', 3)}|(?:\s+[\u0400-\u04FF]{2,20}){1,2})\s*(?:[:=—–-]|это)\s*${VALUE}`, 'g'), pick, accept: secretValue },
  // Turkish, Vietnamese (their keywords carry letters outside ASCII; Indonesian and Polish ASCII ones are
  // in PROSE_DETECTORS): "veritabanı şifresi: X", "mật khẩu máy chủ là X".
  { kind: 'password', hint: /şifre|parola|mật khẩu|hasło/i, re: re(String.raw`(?:şifre(?:si|niz|n)?|parola(?:sı|nız)?|mật\s+khẩu|hasło)(?:\s+[^\s:=：]{1,20}){0,3}?\s*(?:[:=：]|\s(?:là|to|jest|olarak))\s*${VALUE}`, 'gu'), pick, accept: secretValue },
  // Hindi: "पासवर्ड X है", "पासवर्ड: X"
  { kind: 'password', hint: /पासवर्ड|कूटशब्द|टोकन/, re: re(String.raw`(?:पासवर्ड|कूटशब्द|टोकन)\s*(?:है\s*)?[:=]?\s*${VALUE}(?=\s*(?:है|था|$|[।.,]))`, 'g'), pick, accept: secretValue },
  // Korean tokens and secrets (passwords.ts has 비밀번호): "배포 토큰은 X 입니다", "시크릿: X".
  { kind: 'password', hint: /토큰|시크릿|키/, re: re(String.raw`(?:토큰|시크릿|API\s?키|액세스\s?키|비밀\s?키)(?:는|은|가|이|를|을|로|도)?\s*(?:[:=]\s*)?${VALUE}`, 'g'), pick, accept: tokenLike },
];

export const PROSE_DETECTORS: Detector[] = [
  // Spanish, Portuguese, German, French in one pass (a token in any of them is read by the English rule).
  { kind: 'password', hint: LATIN_WORDS, re: re(String.raw`${B}(?:contraseña|contrasena|clave(?:\s+de\s+acceso|\s+secreta|\s+api)?|secreto|senha|palavra-passe|segredo|chave(?:\s+de\s+api|\s+api)?|passwort|kennwort|api-schlüssel|zugangsschlüssel|geheimnis|mot\s+de\s+passe|jeton|clé(?:\s+api|\s+secrète)?|clef)${words(String.raw`de|del|para|do|da|dos|das|für|fuer|vom|von|des|der|den|zum|zur|du|d'|pour`, 4)}\s*(?:es|era|é|e|ist|lautet|war|est|était|:|=)\s+${VALUE}`), pick, accept: secretValue },
  // Indonesian, Polish, Dutch, Swedish, Norwegian, Finnish, Czech, Italian: "kata sandi server: X",
  // "haslo do bazy to X", "het wachtwoord is X", "la password del database è X".
  // (the word start is checked in accept: a lookbehind first in the pattern is tried at every position)
  { kind: 'password', hint: /kata sandi|haslo|wachtwoord|senord|passord|salasana|heslo|password/i, re: re(String.raw`(?:kata\s+sandi|haslo|wachtwoord|lösenord|losenord|passord|salasana|heslo|password)(?:\s+[^\s:=：]{1,20}){0,3}?\s*(?:[:=：]|\s(?:adalah|ialah|to|jest|is|är|er|on|je|è|e|é))\s+${VALUE}`), pick, accept: (v, m) => !/[A-Za-z0-9_\u00C0-\u024F]/.test(m.input[m.index - 1] ?? '') && (passwordLike(v) || tokenLike(v)) },
  // English secrets and tokens: "the client secret is X", "api token: X", "Der API-Token lautet X". The
  // keyword anchors the match (one literal scan); a bare "key" needs a qualifier before it ("the cache
  // key: node-linux-…" is not a secret), checked on the text before the match.
  {
    kind: 'env-secret', hint: EN_WORDS,
    re: re(String.raw`\b(secret|token|key)s?\b${words('for|of|on|to|in|für|de', 3)}\s*(?:is|was|is\s+now|=|:|es|é|ist|lautet|est)\s+${VALUE}`),
    pick: m => pick2(m), accept: (v, m) => tokenLike(v) && (m[1].toLowerCase() !== 'key' || KEY_QUALIFIER.test(m.input.slice(Math.max(0, m.index - 40), m.index))),
  },
  { kind: 'env-secret', hint: EN_WORDS, re: re(String.raw`\b(?:use|using|with|pass|set)\s+(?:the\s+|this\s+|my\s+)?(?:(?:api|access|auth|deploy|bot)\s+)?(?:token|secret|key)\s+${VALUE}`), pick, accept: tokenLike },
];
