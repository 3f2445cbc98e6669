import assert from "node:assert/strict";
import { test } from "node:test";

import { createSounds, SOUNDS, soundOf, VOLUME } from "../../ginrummy/web/static/js/sound.js";

/** A stand-in for the browser's AudioContext that counts what the page starts. */
function fakeAudio() {
  const made = { contexts: 0, starts: 0, stops: /** @type {number[]} */ ([]), gains: /** @type {number[]} */ ([]) };
  const param = () => ({ value: 0, setValueAtTime() {}, exponentialRampToValueAtTime() {} });
  const node = () => ({ connect() {}, gain: param() });
  const make = () => {
    made.contexts += 1;
    return /** @type {any} */ ({
      state: "running", currentTime: 5, destination: {},
      createGain() { const g = node(); queueMicrotask(() => made.gains.push(g.gain.value)); return g; },
      createOscillator() {
        return { ...node(), frequency: param(), type: "", start() { made.starts += 1; }, stop(/** @type {number} */ at) { made.stops.push(at); } };
      },
    });
  };
  return { made, make };
}

test("no sound before a gesture, none when muted, and each sound short and soft", async () => {
  const { made, make } = fakeAudio();
  let on = true;
  const sounds = createSounds(() => on, make);
  assert.equal(sounds.play("draw"), 0);
  assert.equal(made.contexts, 0, "no audio context before the player's first gesture");
  sounds.unlock();
  assert.equal(sounds.play("draw"), 1);
  assert.equal(made.starts, 1);
  on = false; // muted: the switch is honoured at once
  for (const name of Object.keys(SOUNDS)) assert.equal(sounds.play(name), 0);
  assert.equal(made.starts, 1);
  on = true;
  assert.equal(sounds.play("win"), SOUNDS.win.length);
  assert.equal(made.contexts, 1, "one audio context for the page");
  assert.equal(sounds.play(null), 0);
  await Promise.resolve();
  assert.ok(made.gains.includes(VOLUME) && VOLUME <= 0.2);
  // Every sound ends within a second and a half of its start.
  for (const tones of Object.values(SOUNDS)) assert.ok(Math.max(...tones.map((t) => t.at + t.dur)) < 1.5);
  assert.ok(made.stops.every((at) => at < 5 + 1.5));
});

test("each move has its sound, and a pass none", () => {
  assert.equal(soundOf({ kind: "dealt" }), "deal");
  for (const kind of ["stock", "pile", "take"]) assert.equal(soundOf({ kind }), "draw");
  assert.equal(soundOf({ kind: "discard" }), "discard");
  assert.equal(soundOf({ kind: "knock", deadwood: 4 }), "knock");
  assert.equal(soundOf({ kind: "knock", deadwood: 0 }), "gin");
  assert.equal(soundOf({ kind: "big_gin" }), "gin");
  assert.equal(soundOf({ kind: "pass" }), null);
});

test("the audio context is made just after the first gesture when sound is on, not in it", async () => {
  const { made, make } = fakeAudio();
  let on = false;
  const muted = createSounds(() => on, make);
  muted.unlock();
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(made.contexts, 0, "muted: none until a sound is played");
  on = true;
  const sounds = createSounds(() => on, make);
  sounds.unlock();
  assert.equal(made.contexts, 0, "not in the gesture's own task");
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(made.contexts, 1);
  assert.equal(sounds.play("deal"), SOUNDS.deal.length);
  assert.equal(made.contexts, 1, "the same one plays the sounds");
});
