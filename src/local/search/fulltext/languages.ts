// The languages a full-text field may be analysed in: the eighteen the service lists (Snowball's set), each by its
// two-letter code, with its stemmer and stop words from @orama/stemmers and @orama/stopwords (pure JavaScript).
import { stemmer as ar } from "@orama/stemmers/arabic";
import { stemmer as da } from "@orama/stemmers/danish";
import { stemmer as de } from "@orama/stemmers/german";
import { stemmer as el } from "@orama/stemmers/greek";
import { stemmer as en } from "@orama/stemmers/english";
import { stemmer as es } from "@orama/stemmers/spanish";
import { stemmer as fi } from "@orama/stemmers/finnish";
import { stemmer as fr } from "@orama/stemmers/french";
import { stemmer as hu } from "@orama/stemmers/hungarian";
import { stemmer as it } from "@orama/stemmers/italian";
import { stemmer as nl } from "@orama/stemmers/dutch";
import { stemmer as no } from "@orama/stemmers/norwegian";
import { stemmer as pt } from "@orama/stemmers/portuguese";
import { stemmer as ro } from "@orama/stemmers/romanian";
import { stemmer as ru } from "@orama/stemmers/russian";
import { stemmer as sv } from "@orama/stemmers/swedish";
import { stemmer as ta } from "@orama/stemmers/tamil";
import { stemmer as tr } from "@orama/stemmers/turkish";
import { stopwords as arStop } from "@orama/stopwords/arabic";
import { stopwords as daStop } from "@orama/stopwords/danish";
import { stopwords as deStop } from "@orama/stopwords/german";
import { stopwords as elStop } from "@orama/stopwords/greek";
import { stopwords as enStop } from "@orama/stopwords/english";
import { stopwords as esStop } from "@orama/stopwords/spanish";
import { stopwords as fiStop } from "@orama/stopwords/finnish";
import { stopwords as frStop } from "@orama/stopwords/french";
import { stopwords as huStop } from "@orama/stopwords/hungarian";
import { stopwords as itStop } from "@orama/stopwords/italian";
import { stopwords as nlStop } from "@orama/stopwords/dutch";
import { stopwords as noStop } from "@orama/stopwords/norwegian";
import { stopwords as ptStop } from "@orama/stopwords/portuguese";
import { stopwords as roStop } from "@orama/stopwords/romanian";
import { stopwords as ruStop } from "@orama/stopwords/russian";
import { stopwords as svStop } from "@orama/stopwords/swedish";
import { stopwords as taStop } from "@orama/stopwords/tamil";
import { stopwords as trStop } from "@orama/stopwords/turkish";

interface Language { name: string; stem: (word: string) => string; stopWords: readonly string[] }

const LANGUAGES: Record<string, Language> = {
  ar: { name: "arabic", stem: ar, stopWords: arStop },
  da: { name: "danish", stem: da, stopWords: daStop },
  de: { name: "german", stem: de, stopWords: deStop },
  el: { name: "greek", stem: el, stopWords: elStop },
  en: { name: "english", stem: en, stopWords: enStop },
  es: { name: "spanish", stem: es, stopWords: esStop },
  fi: { name: "finnish", stem: fi, stopWords: fiStop },
  fr: { name: "french", stem: fr, stopWords: frStop },
  hu: { name: "hungarian", stem: hu, stopWords: huStop },
  it: { name: "italian", stem: it, stopWords: itStop },
  nl: { name: "dutch", stem: nl, stopWords: nlStop },
  no: { name: "norwegian", stem: no, stopWords: noStop },
  pt: { name: "portuguese", stem: pt, stopWords: ptStop },
  ro: { name: "romanian", stem: ro, stopWords: roStop },
  ru: { name: "russian", stem: ru, stopWords: ruStop },
  sv: { name: "swedish", stem: sv, stopWords: svStop },
  ta: { name: "tamil", stem: ta, stopWords: taStop },
  tr: { name: "turkish", stem: tr, stopWords: trStop },
};

/** The language a code or an English name names ("en", "EN", "english"), or undefined. */
export function language(codeOrName: string): Language | undefined {
  const key = codeOrName.toLowerCase();
  return LANGUAGES[key] ?? Object.values(LANGUAGES).find((l) => l.name === key);
}
