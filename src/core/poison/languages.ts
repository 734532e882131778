// "Ignore the previous instructions" in the ten most common languages of developers besides English
// and Korean (poison.ts has those): an order to drop (verb) earlier (qualifier) instructions (noun), in
// either order, within one sentence. The verb forms are imperatives and infinitives, so a sentence that
// says a warning "can be ignored" (ignoriert, 無視しても, अनदेखा किया जा सकता) names no instruction and
// stays clean; Korean passive forms are handled the same way in poison.ts.
import type { InjectionDetector } from './templates';

interface Language { name: string; verbs: string; nouns: string; prior: string; gap?: number }

/** A word boundary for any script (JavaScript's \b knows only ASCII letters). */
const B = String.raw`(?<![\p{L}\p{N}])`;
const E = String.raw`(?![\p{L}\p{N}])`;

const LANGUAGES: Language[] = [
  { name: 'Spanish', verbs: 'ignora|ignore|ignorar|ignoren|olvida|olvide|olvidar|olviden|descarta|descarte|omite|omita|haz caso omiso de', nouns: 'instrucciones|indicaciones|órdenes|ordenes|reglas|directrices', prior: 'anteriores|previas|de arriba|anteriormente dadas|recibidas' },
  { name: 'Portuguese', verbs: 'ignore|ignora|ignorar|ignorem|esqueça|esqueca|esquece|esquecer|desconsidere|desconsidera', nouns: 'instruções|instrucoes|orientações|orientacoes|regras|diretrizes|comandos', prior: 'anteriores|acima|prévias|previas|recebidas' },
  { name: 'French', verbs: 'ignore|ignorez|ignorer|oublie|oubliez|oublier|ne tiens pas compte des|ne tenez pas compte des', nouns: 'instructions|consignes|directives|règles|regles|indications', prior: 'précédentes|precedentes|antérieures|anterieures|ci-dessus|plus haut|reçues|recues' },
  { name: 'German', verbs: 'ignoriere|ignorier|ignorieren|ignoriert alle|vergiss|vergesst|vergessen sie|missachte|missachten sie', nouns: 'anweisungen|anweisung|instruktionen|befehle|regeln|vorgaben', prior: 'vorherigen|vorigen|bisherigen|obigen|früheren|fruheren|vorangegangenen|erhaltenen' },
  { name: 'Russian', verbs: 'игнорируй|игнорируйте|проигнорируй|проигнорируйте|игнорировать|забудь|забудьте|не обращай внимания на|не обращайте внимания на', nouns: 'инструкции|инструкций|указания|указаний|правила|правил|команды|команд', prior: 'предыдущие|предыдущих|прошлые|прошлых|прежние|прежних|вышеуказанные|вышеуказанных|выше|ранее' },
  { name: 'Hindi', verbs: 'अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल जाओ|भूल जाएं|भूल जाइए', nouns: 'निर्देशों|निर्देश|आदेशों|आदेश|नियमों', prior: 'पिछले|पहले के|ऊपर के|पूर्व|सभी', gap: 30 },
];

function build(l: Language): RegExp {
  const gap = l.gap ?? 40;
  const v = `${B}(?:${l.verbs})${E}`, n = `${B}(?:${l.nouns})${E}`, p = `${B}(?:${l.prior})${E}`;
  const w = `[^.!?。\\n]{0,${gap}}?`;
  // verb … noun … qualifier, verb … qualifier … noun, and (Hindi, Japanese word order) qualifier … noun … verb.
  return new RegExp(`${v}${w}${n}${w}${p}|${v}${w}${p}${w}${n}|${p}${w}${n}${w}${v}`, 'iu');
}

export const LANGUAGE_DETECTORS: InjectionDetector[] = [
  ...LANGUAGES.map(l => ({ reason: `asks to ignore previous instructions (${l.name})`, re: build(l) })),
  // Chinese: 忽略/无视/忘记 … 之前/上面/所有 … 指令/指示/规则.
  { reason: 'asks to ignore previous instructions (Chinese)', re: /(忽略|无视|無視|忽视|忽視|忘记|忘記|忘掉|不要理会|不要理會|别管|別管)[^。！？\n]{0,12}?(之前|以前|先前|上面|上述|前面|此前|原来|原來|所有|全部)[^。！？\n]{0,8}?(指令|指示|说明|說明|规则|規則|提示|命令|要求|设定|設定)/ },
  // Japanese: 以前の/上記の … 指示 … 無視して / 忘れて (an order: "無視しても" is permission, not an order).
  { reason: 'asks to ignore previous instructions (Japanese)', re: /(以前|前|上記|これまで|先ほど|上|前述|今まで)の?[^。！？\n]{0,10}?(指示|命令|指令|ルール|プロンプト|設定)[^。！？\n]{0,12}?(無視(?!しても)|忘れ(?!ても))/ },
  { reason: 'mentions the system prompt', re: /prompt\s+syst[eè]me|prompt\s+del\s+sistema|prompt\s+do\s+sistema|system-?prompt|системн\S*\s+промпт|系统提示|系統提示|システムプロンプト/i },
];
