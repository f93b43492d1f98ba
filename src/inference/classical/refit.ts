/**
 * Re-fitting a carried mask to the frame it was carried to: GrabCut initialised from the mask
 * instead of a box. Carrying (by flow or by a tracked shift) gets the object's place right but not
 * its outline — the object turns, deforms, changes state, or the carried outline has drifted a few
 * pixels per step. GrabCut learns the object's and the surroundings' colours from the carried mask
 * itself and snaps the outline to the colour edge:
 *
 *   - inside the mask, eroded by a sixth of the object's shorter side: surely the object (GC_FGD),
 *     so a fit can never lose the object's core;
 *   - the rest of the mask: probably the object (GC_PR_FGD);
 *   - a band around the mask, a tenth of the object's longer side wide: probably background
 *     (GC_PR_BGD), where the object may have grown or turned (a wider band lets the fit swallow
 *     look-alike neighbours such as the fingers holding a cup, and what it swallows is carried on);
 *   - beyond the band: background (GC_BGD), which also keeps the fit from leaking onto look-alikes.
 *
 * Each group of nearby regions (its state regions together, the hand's gaps closed) is fitted in
 * its own crop. Then the states inside the fitted object are re-fitted by colour (splitStates):
 * a state change moves the boundary between the states (coffee rising in the cup) while the
 * object's outline stays; without two distinct colours, each pixel takes the state of the nearest
 * carried pixel. A carried pixel the fit drops becomes background. `agreement` (IoU of the
 * fit with the carried mask) says how much the fit had to change, one of the confidence's inputs.
 * Docs: docs/inference.md, "Propagation without weights".
 */
import type { Box, LabelMap, RgbaImage } from '../../masks/labelMap';
import type { Cv } from './cv';
import { clipBox, fillHoles, keepMainComponents, rgbMat } from './images';
import { objectGroups, type ObjectGroup } from './groups';

export interface RefitOptions {
  /** GrabCut iterations (default 3). */
  iterations?: number;
  /** Crops are scaled so their longer side is at most this (default 240). */
  maxSide?: number;
  /** Width of the probable-background band, as a fraction of the object's longer side (default 0.1). */
  band?: number;
  /** Opening (px, odd) of the fitted mask, cutting thin look-alike protrusions (fingers) off (default 6 % of the longer side). */
  open?: number;
  /** Groups smaller than this many pixels are carried unchanged (default 64). */
  minArea?: number;
  /** Only the largest this many groups are fitted, the rest carried (default 12): grated shreds come by the hundred. */
  maxGroups?: number;
}

export interface GroupFit {
  box: Box;
  /** Carried area and fitted area. */
  carried: number;
  fitted: number;
  /** IoU of the fitted mask with the carried one (1 when the group was kept as carried). */
  agreement: number;
}

export interface Refit {
  map: LabelMap;
  groups: GroupFit[];
}

const GC_BGD = 0;
const GC_FGD = 1;
const GC_PR_BGD = 2;
const GC_PR_FGD = 3;

/** Square-ish distance (chessboard) from the mask, up to `limit`, inside a w*h crop. */
function distanceFrom(mask: Uint8Array, w: number, h: number, inside: boolean, limit: number): Uint16Array {
  const d = new Uint16Array(w * h).fill(limit);
  let frontier: number[] = [];
  for (let i = 0; i < mask.length; i++) if ((mask[i] !== 0) === !inside) {
    d[i] = 0;
    frontier.push(i);
  }
  for (let step = 1; step < limit && frontier.length > 0; step++) {
    const next: number[] = [];
    for (const i of frontier) {
      const x = i % w;
      const y = (i - x) / w;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
          const j = yy * w + xx;
          if (d[j] > step) {
            d[j] = step;
            next.push(j);
          }
        }
      }
    }
    frontier = next;
  }
  return d;
}

function fitGroup(cv: Cv, rgb: InstanceType<Cv['Mat']>, width: number, height: number, ids: Int32Array, g: ObjectGroup, options: RefitOptions): { crop: Box; fg: Uint8Array } | null {
  const side = Math.max(g.box.w, g.box.h);
  const band = Math.max(4, Math.round(side * (options.band ?? 0.1)));
  const crop = clipBox({ x: g.box.x - band - 4, y: g.box.y - band - 4, w: g.box.w + 2 * band + 8, h: g.box.h + 2 * band + 8 }, width, height)!;
  const cw = crop.w;
  const ch = crop.h;
  const local = new Uint8Array(cw * ch);
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      const i = (crop.y + y) * width + crop.x + x;
      local[y * cw + x] = ids[i] === g.id ? 1 : 0;
    }
  }
  const inside = distanceFrom(local, cw, ch, true, 1 << 15);
  const outside = distanceFrom(local, cw, ch, false, band + 1);
  const core = Math.max(2, Math.round(Math.min(g.box.w, g.box.h) / 6));
  const scale = Math.min(1, (options.maxSide ?? 240) / Math.max(cw, ch));
  const sw = Math.max(1, Math.round(cw * scale));
  const sh = Math.max(1, Math.round(ch * scale));
  const roi = rgb.roi(new cv.Rect(crop.x, crop.y, cw, ch));
  const small = new cv.Mat();
  const init = new cv.Mat(ch, cw, cv.CV_8UC1);
  const mask = new cv.Mat();
  const bgd = new cv.Mat();
  const fgd = new cv.Mat();
  const up = new cv.Mat();
  try {
    const m = init.data;
    let fgCount = 0;
    let bgCount = 0;
    for (let i = 0; i < m.length; i++) {
      if (local[i]) m[i] = inside[i] > core ? GC_FGD : GC_PR_FGD;
      else m[i] = outside[i] <= band ? GC_PR_BGD : GC_BGD;
      if (m[i] === GC_FGD || m[i] === GC_PR_FGD) fgCount++;
      else bgCount++;
    }
    // GrabCut needs samples of both; a group filling its whole crop (the frame) has no background.
    if (fgCount < 16 || bgCount < 16) return null;
    if (scale < 1) {
      cv.resize(roi, small, new cv.Size(sw, sh), 0, 0, cv.INTER_AREA);
      cv.resize(init, mask, new cv.Size(sw, sh), 0, 0, cv.INTER_NEAREST);
    } else {
      roi.copyTo(small);
      init.copyTo(mask);
    }
    // GrabCut seeds its colour models with k-means on OpenCV's global random generator: without a
    // fixed seed a fit depends on every fit before it in the worker (a chain's results changed with
    // what ran earlier). Seeded per fit, the same frame and mask always fit the same.
    cv.setRNGSeed(0x5eed);
    cv.grabCut(small, mask, new cv.Rect(0, 0, 1, 1), bgd, fgd, options.iterations ?? 3, cv.GC_INIT_WITH_MASK);
    const fgMat = new cv.Mat(sh, sw, cv.CV_8UC1);
    const md = mask.data;
    for (let i = 0; i < md.length; i++) fgMat.data[i] = md[i] & 1 ? 255 : 0;
    if (scale < 1) cv.resize(fgMat, up, new cv.Size(cw, ch), 0, 0, cv.INTER_LINEAR);
    else fgMat.copyTo(up);
    fgMat.delete();
    const k = Math.max(3, (options.open ?? Math.round(side * 0.06)) | 1);
    const kernel = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(k, k));
    cv.threshold(up, up, 127, 1, cv.THRESH_BINARY);
    cv.morphologyEx(up, up, cv.MORPH_OPEN, kernel);
    kernel.delete();
    const fg = new Uint8Array(up.data);
    return { crop, fg: fillHoles(keepMainComponents(cv, fg, cw, ch, { minFraction: 0.15 }), cw, ch) };
  } finally {
    roi.delete();
    small.delete();
    init.delete();
    mask.delete();
    bgd.delete();
    fgd.delete();
    up.delete();
  }
}

/**
 * Labels for the pixels of `fg` (a crop) from the carried labels: carried pixels keep theirs,
 * added ones take the nearest carried state (breadth-first from the carried pixels inside fg).
 */
function assignStates(fg: Uint8Array, carried: Uint8Array, cw: number, ch: number): Uint8Array {
  const out = new Uint8Array(cw * ch);
  let frontier: number[] = [];
  for (let i = 0; i < fg.length; i++) if (fg[i] && carried[i]) {
    out[i] = carried[i];
    frontier.push(i);
  }
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const i of frontier) {
      const x = i % cw;
      const y = (i - x) / cw;
      const visit = (j: number) => {
        if (fg[j] && !out[j]) {
          out[j] = out[i];
          next.push(j);
        }
      };
      if (x > 0) visit(i - 1);
      if (x < cw - 1) visit(i + 1);
      if (y > 0) visit(i - cw);
      if (y < ch - 1) visit(i + cw);
    }
    frontier = next;
  }
  return out;
}

/**
 * The states inside the fitted object by colour: a diagonal Gaussian per state from the pixels
 * carried with that state (its core: carried, fitted, and nearest-assigned alike), each object pixel
 * given the likelier state, then a 5x5 majority vote inside the object against speckle. Skipped (the
 * nearest-carried states kept) unless both states have 32 pixels and their mean colours lie more
 * than 2.5 pooled standard deviations apart: states that look alike cannot be told apart by colour.
 */
function splitStates(rgb: InstanceType<Cv['Mat']>, crop: Box, fg: Uint8Array, nearest: Uint8Array, carried: Uint8Array): Uint8Array {
  const cw = crop.w;
  const ch = crop.h;
  const stride = rgb.cols * 3;
  const px = rgb.data;
  const at = (k: number, c: number) => px[(crop.y + Math.floor(k / cw)) * stride + (crop.x + (k % cw)) * 3 + c];
  const n = [0, 0, 0];
  const sum = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  const sq = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (let k = 0; k < fg.length; k++) {
    const l = carried[k];
    if (!fg[k] || (l !== 1 && l !== 2) || nearest[k] !== l) continue;
    n[l]++;
    for (let c = 0; c < 3; c++) {
      const v = at(k, c);
      sum[l][c] += v;
      sq[l][c] += v * v;
    }
  }
  if (n[1] < 32 || n[2] < 32) return nearest;
  const mean = [1, 2].map((l) => sum[l].map((v) => v / n[l]));
  const vari = [1, 2].map((l, j) => sq[l].map((v, c) => Math.max(16, v / n[l] - mean[j][c] ** 2)));
  let d2 = 0;
  for (let c = 0; c < 3; c++) d2 += (mean[0][c] - mean[1][c]) ** 2 / ((vari[0][c] + vari[1][c]) / 2);
  if (Math.sqrt(d2) < 2.5) return nearest;
  const logDet = vari.map((v) => Math.log(v[0] * v[1] * v[2]));
  const raw = new Uint8Array(fg.length);
  for (let k = 0; k < fg.length; k++) {
    if (!fg[k]) continue;
    let e1 = logDet[0];
    let e2 = logDet[1];
    for (let c = 0; c < 3; c++) {
      const v = at(k, c);
      e1 += (v - mean[0][c]) ** 2 / vari[0][c];
      e2 += (v - mean[1][c]) ** 2 / vari[1][c];
    }
    raw[k] = e1 <= e2 ? 1 : 2;
  }
  const out = new Uint8Array(fg.length);
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      const k = y * cw + x;
      if (!fg[k]) continue;
      let a = 0;
      let b = 0;
      for (let yy = Math.max(0, y - 2); yy <= Math.min(ch - 1, y + 2); yy++) {
        for (let xx = Math.max(0, x - 2); xx <= Math.min(cw - 1, x + 2); xx++) {
          const v = raw[yy * cw + xx];
          if (v === 1) a++;
          else if (v === 2) b++;
        }
      }
      out[k] = a > b ? 1 : b > a ? 2 : raw[k];
    }
  }
  return out;
}

export function refitLabels(cv: Cv, image: RgbaImage, carried: LabelMap, options: RefitOptions = {}): Refit {
  const { width, height } = image;
  if (carried.width !== width || carried.height !== height) throw new RangeError(`labels are ${carried.width}x${carried.height}, the frame ${width}x${height}`);
  const out = new Uint8Array(carried.data);
  const groups: GroupFit[] = [];
  const rgb = rgbMat(cv, image);
  try {
    const { ids, groups: found } = objectGroups(carried);
    const chosen = new Set([...found].sort((a, b) => b.area - a.area).slice(0, options.maxGroups ?? 12));
    for (const g of found) {
      if (g.area < (options.minArea ?? 64) || !chosen.has(g)) {
        groups.push({ box: g.box, carried: g.area, fitted: g.area, agreement: 1 });
        continue;
      }
      const fit = fitGroup(cv, rgb, width, height, ids, g, options);
      if (!fit) {
        groups.push({ box: g.box, carried: g.area, fitted: g.area, agreement: 1 });
        continue;
      }
      const { crop, fg } = fit;
      const cw = crop.w;
      const local = new Uint8Array(cw * crop.h);
      for (let y = 0; y < crop.h; y++) {
        for (let x = 0; x < cw; x++) {
          const i = (crop.y + y) * width + crop.x + x;
          local[y * cw + x] = ids[i] === g.id ? carried.data[i] : 0;
        }
      }
      const states = splitStates(rgb, crop, fg, assignStates(fg, local, cw, crop.h), local);
      let inter = 0;
      let fitted = 0;
      for (let k = 0; k < states.length; k++) {
        if (states[k]) fitted++;
        if (states[k] && local[k]) inter++;
      }
      // A fit that keeps under a third of the carried mask found no object there (a stroke painted
      // over texture, a low-contrast object): the carried mask is kept, its low agreement reported.
      const kept = inter >= g.area / 3;
      for (let y = 0; y < crop.h && kept; y++) {
        for (let x = 0; x < cw; x++) {
          const k = y * cw + x;
          const i = (crop.y + y) * width + crop.x + x;
          // Pixels of this group are replaced; other groups' pixels in the crop stay as carried.
          if (ids[i] === g.id || (!carried.data[i] && states[k])) out[i] = states[k];
        }
      }
      groups.push({ box: g.box, carried: g.area, fitted, agreement: inter / Math.max(1, g.area + fitted - inter) });
    }
  } finally {
    rgb.delete();
  }
  return { map: { width, height, data: out }, groups };
}
