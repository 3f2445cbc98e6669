// Sound effects, made in the page with the Web Audio API (no files): short, soft tones.
// None before the player's first click, tap or key (the browsers' autoplay rule, and
// manners), none when muted (the display options, or the speaker button on the table).

/**
 * One tone of a sound: a frequency (gliding to `to` if given), `at` seconds after the
 * sound starts, for `dur` seconds, at a loudness from 0 to 1 under the page's low volume.
 * @typedef {{f: number, to?: number, at: number, dur: number, type?: OscillatorType, vol?: number}} Tone
 */

const C5 = 523.25, E5 = 659.25, G5 = 783.99, C6 = 1046.5, E6 = 1318.5;

/** @type {Record<string, Tone[]>} the page's sounds, each a few tones */
export const SOUNDS = {
  deal: [0, 0.06, 0.12, 0.18].map((at) => ({ f: 1200, to: 700, at, dur: 0.035, type: "triangle", vol: 0.4 })),
  draw: [{ f: 700, to: 950, at: 0, dur: 0.07, type: "triangle", vol: 0.5 }],
  discard: [{ f: 440, to: 300, at: 0, dur: 0.09, type: "triangle", vol: 0.6 }],
  knock: [0, 0.15].map((at) => ({ f: 190, to: 120, at, dur: 0.09, type: "sine", vol: 1 })),
  gin: [C5, E5, G5, C6].map((f, i) => ({ f, at: i * 0.08, dur: 0.18, type: "sine", vol: 0.6 })),
  win: [C5, E5, G5, C6, E6].map((f, i) => ({ f, at: i * 0.11, dur: 0.3, type: "triangle", vol: 0.6 })),
  lose: [392, 349.23, 311.13].map((f, i) => ({ f, at: i * 0.2, dur: 0.35, type: "sine", vol: 0.5 })),
};

/** How loud the page's sounds are at most (of the system's volume). */
export const VOLUME = 0.12;

/**
 * The sound of a move on the table, or null (a pass is silent).
 * @param {{kind: string, deadwood?: number | null}} ev
 * @returns {string | null}
 */
export function soundOf(ev) {
  if (ev.kind === "dealt") return "deal";
  if (ev.kind === "stock" || ev.kind === "pile" || ev.kind === "take") return "draw";
  if (ev.kind === "discard") return "discard";
  if (ev.kind === "big_gin" || (ev.kind === "knock" && ev.deadwood === 0)) return "gin";
  if (ev.kind === "knock") return "knock";
  return null;
}

/**
 * The page's sound player. `enabled` says whether sound is on now; the audio context is
 * made after `unlock()` (a user gesture), never before: just after it, when sound is on
 * (making one can take half a second on a busy device, better spent while the page waits
 * for its first answer than before it draws the table), else at the first sound.
 * @param {() => boolean} enabled
 * @param {() => AudioContext} [makeContext]
 */
export function createSounds(enabled, makeContext = () => new AudioContext()) {
  /** @type {AudioContext | null} */
  let ctx = null;
  let unlocked = false;
  return {
    /** The player clicked, tapped or pressed a key: sounds may play from now on. */
    unlock() {
      unlocked = true;
      setTimeout(() => {
        try {
          if (!ctx && enabled()) ctx = makeContext();
        } catch { /* no Web Audio here: silence */ }
      }, 0);
    },
    /**
     * Play a sound if it may be heard; the number of tones started.
     * @param {string | null} name
     */
    play(name) {
      const tones = name ? SOUNDS[name] : null;
      if (!tones || !unlocked || !enabled()) return 0;
      try {
        if (!ctx) ctx = makeContext();
        if (ctx.state === "suspended") ctx.resume();
      } catch {
        return 0; // no Web Audio here: silence
      }
      const now = ctx.currentTime + 0.01;
      const out = ctx.createGain();
      out.gain.value = VOLUME;
      out.connect(ctx.destination);
      for (const tone of tones) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        const start = now + tone.at;
        const end = start + tone.dur;
        osc.type = tone.type || "sine";
        osc.frequency.setValueAtTime(tone.f, start);
        if (tone.to) osc.frequency.exponentialRampToValueAtTime(tone.to, end);
        // A quick rise and a soft fall: no click at either end.
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(tone.vol ?? 0.6, start + 0.008);
        gain.gain.exponentialRampToValueAtTime(0.0001, end);
        osc.connect(gain);
        gain.connect(out);
        osc.start(start);
        osc.stop(end + 0.02);
      }
      return tones.length;
    },
  };
}
