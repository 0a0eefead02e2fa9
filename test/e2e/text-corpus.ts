// A folder-sized corpus for the text tests: short notes on distinct topics, one of them holding a rare word and
// one a rare phrase. Deterministic, so the tests can name the note that must be found.
const TOPICS: Record<string, string[]> = {
  gardening: ["tomato", "compost", "seedlings", "pruning", "trellis", "mulch", "watering", "soil"],
  astronomy: ["telescope", "nebula", "orbit", "comet", "eclipse", "galaxy", "planet", "starlight"],
  cooking: ["saucepan", "simmer", "garlic", "recipe", "oven", "dough", "spice", "broth"],
  sailing: ["mainsail", "harbor", "tide", "anchor", "keel", "mooring", "wind", "deck"],
  chess: ["opening", "bishop", "endgame", "castling", "gambit", "knight", "pawn", "checkmate"],
  cycling: ["derailleur", "saddle", "climb", "cadence", "tyre", "chainring", "descent", "peloton"],
  music: ["violin", "chord", "tempo", "rehearsal", "melody", "score", "orchestra", "harmony"],
  finance: ["invoice", "budget", "ledger", "interest", "payment", "account", "receipt", "audit"],
  hiking: ["trail", "summit", "backpack", "blister", "ridge", "compass", "switchback", "meadow"],
  coding: ["compiler", "function", "refactor", "debugger", "variable", "commit", "branch", "test"],
};
const FILLER = ["the", "a", "today", "notes", "about", "with", "and", "for", "my", "new", "again", "this", "week"];

export interface Note { _id: string; text: string; topic: string }

export function corpus(perTopic = 30): Note[] {
  const notes: Note[] = [];
  let n = 0;
  for (const [topic, words] of Object.entries(TOPICS)) {
    for (let i = 0; i < perTopic; i++) {
      const pick = (k: number) => words[(i * 3 + k * 5) % words.length];
      const text = `${FILLER[i % FILLER.length]} ${pick(0)} ${FILLER[(i + 4) % FILLER.length]} ${pick(1)} ${pick(2)} ${FILLER[(i + 7) % FILLER.length]} ${topic}`;
      notes.push({ _id: `note-${String(n).padStart(3, "0")}`, text, topic });
      n++;
    }
  }
  notes[137] = { ...notes[137], text: `${notes[137].text} quetzalcoatl` };
  notes[211] = { ...notes[211], text: `the midnight lantern by the old harbor wall ${notes[211].topic}` };
  return notes;
}
