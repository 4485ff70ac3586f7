// The digit pad: pointer strokes -> downsample() -> digits_cnn.wasm -> bars.
//
// ?selftest=NAME (a preset below) or ?selftest=[[[x,y],...],...] (strokes
// in pad pixels) draws those strokes by dispatching PointerEvents on the
// pad, so the page's own input path runs, then writes the model input, the
// logits, the probabilities and the predicted class as JSON into
// <pre id="result"> (tests/targets/web/page_test.py reads it).
import { downsample } from './downsample.js';

const pad = document.getElementById('pad');
const ctx = pad.getContext('2d');
const preview = document.getElementById('preview').getContext('2d');
const bars = document.getElementById('bars');
const predicted = document.getElementById('predicted');
const status = document.getElementById('status');

// Strokes in pad pixels (pad.width x pad.height), as drawn.
let strokes = [];
let drawing = false;
let wasm = null;

function ellipse(cx, cy, rx, ry, n = 40) {
  const p = [];
  for (let i = 0; i <= n; ++i) {
    const a = 2 * Math.PI * i / n;
    p.push([cx + rx * Math.sin(a), cy - ry * Math.cos(a)]);
  }
  return p;
}

// Digits drawn the way people write them; the model classifies each one
// correctly with a margin (probability > 0.95).
const kPresets = {
  one: [[[110, 80], [145, 40], [145, 240]]],
  seven: [[[60, 40], [200, 40], [110, 240]]],
  zero: [ellipse(140, 140, 60, 100)],
  four: [[[140, 40], [60, 170], [200, 170]], [[160, 90], [160, 240]]],
};

// --- Bars -----------------------------------------------------------------
const rows = [];
for (let k = 0; k < 10; ++k) {
  const label = document.createElement('span');
  label.textContent = k;
  const track = document.createElement('div');
  const bar = document.createElement('div');
  bar.className = 'bar';
  bar.style.width = '0';
  track.append(bar);
  const value = document.createElement('span');
  bars.append(label, track, value);
  rows.push({ label, bar, value });
}

function show(input, probs) {
  const image = preview.createImageData(8, 8);
  input.forEach((v, i) => {
    const g = 255 - Math.round(255 * v);
    image.data.set([g, g, g, 255], 4 * i);
  });
  preview.putImageData(image, 0, 0);
  // An empty pad has no prediction: highlight nothing.
  const best = strokes.length ? probs.indexOf(Math.max(...probs)) : -1;
  rows.forEach(({ label, bar, value }, k) => {
    bar.style.width = `${(100 * probs[k]).toFixed(1)}%`;
    value.textContent = probs[k].toFixed(3);
    for (const e of [label, bar, value]) e.classList.toggle('best', k === best);
  });
  predicted.textContent = best >= 0 ? best : '';
  return best;
}

// --- The model ------------------------------------------------------------
// digits_cnn.wasm is a WASI reactor without imports: _initialize runs its
// constructors, then digits_input/digits_run/digits_probs are the API.
async function loadModel() {
  const response = await fetch('digits_cnn.wasm');
  if (!response.ok) throw new Error(`digits_cnn.wasm: HTTP ${response.status}`);
  const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), {});
  instance.exports._initialize();
  return instance.exports;
}

function classify() {
  const input = downsample(strokes);
  if (!wasm) return null;
  const memory = wasm.memory.buffer;
  new Float32Array(memory, wasm.digits_input(), 64).set(input);
  wasm.digits_run();
  const probs = Array.from(new Float32Array(memory, wasm.digits_probs(), 10));
  const logits = Array.from(new Float32Array(memory, wasm.digits_logits(), 10));
  return { input: Array.from(input), logits, probs, predicted: show(input, probs) };
}

// Classifying costs well under a millisecond; one per frame while drawing.
let pending = false;
function classifySoon() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => { pending = false; classify(); });
}

// --- Drawing --------------------------------------------------------------
function padPoint(event) {
  const rect = pad.getBoundingClientRect();
  return [(event.clientX - rect.left) * pad.width / rect.width,
          (event.clientY - rect.top) * pad.height / rect.height];
}

function redraw() {
  ctx.clearRect(0, 0, pad.width, pad.height);
  ctx.lineWidth = 18;
  ctx.lineCap = ctx.lineJoin = 'round';
  ctx.strokeStyle = '#111';
  for (const stroke of strokes) {
    ctx.beginPath();
    stroke.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    if (stroke.length === 1) ctx.lineTo(stroke[0][0], stroke[0][1]);
    ctx.stroke();
  }
}

pad.addEventListener('pointerdown', (event) => {
  drawing = true;
  // Synthetic events (the self-test) have no active pointer to capture.
  try { pad.setPointerCapture(event.pointerId); } catch { /* not capturable */ }
  strokes.push([padPoint(event)]);
  redraw();
});
pad.addEventListener('pointermove', (event) => {
  if (!drawing) return;
  strokes[strokes.length - 1].push(padPoint(event));
  redraw();
  classifySoon();
});
for (const type of ['pointerup', 'pointercancel']) {
  pad.addEventListener(type, () => {
    if (!drawing) return;
    drawing = false;
    classify();
  });
}
document.getElementById('clear').addEventListener('click', () => {
  strokes = [];
  redraw();
  show(new Float32Array(64), new Array(10).fill(0));
});

// --- Self-test ------------------------------------------------------------
function dispatch(type, [x, y]) {
  const rect = pad.getBoundingClientRect();
  pad.dispatchEvent(new PointerEvent(type, {
    bubbles: true, cancelable: true, pointerId: 1, pointerType: 'mouse', isPrimary: true,
    buttons: type === 'pointerup' ? 0 : 1,
    clientX: rect.left + x * rect.width / pad.width,
    clientY: rect.top + y * rect.height / pad.height,
  }));
}

// Moves the pointer along each stroke in steps of at most 6 pad pixels,
// as a hand would, so the strokes recorded are the page's own.
function drawStrokes(input) {
  for (const stroke of input) {
    dispatch('pointerdown', stroke[0]);
    for (let i = 1; i < stroke.length; ++i) {
      const [ax, ay] = stroke[i - 1], [bx, by] = stroke[i];
      const steps = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / 6));
      for (let s = 1; s <= steps; ++s)
        dispatch('pointermove', [ax + (bx - ax) * s / steps, ay + (by - ay) * s / steps]);
    }
    dispatch('pointerup', stroke[stroke.length - 1]);
  }
}

function selfTest(spec) {
  const input = spec.trim().startsWith('[') ? JSON.parse(spec) : kPresets[spec];
  if (!input) throw new Error(`unknown preset '${spec}'; presets: ${Object.keys(kPresets)}`);
  strokes = [];
  drawStrokes(input);
  const result = classify();
  result.strokes = strokes.length;
  return result;
}

const report = (value) => { document.getElementById('result').textContent = JSON.stringify(value); };
const spec = new URLSearchParams(location.search).get('selftest');
try {
  wasm = await loadModel();
  status.textContent = 'digits_cnn.wasm loaded: draw a digit in the box.';
  show(new Float32Array(64), new Array(10).fill(0));
  if (spec) report(selfTest(spec));
} catch (error) {
  status.textContent = `error: ${error.message}`;
  if (spec) report({ error: String(error) });
}
