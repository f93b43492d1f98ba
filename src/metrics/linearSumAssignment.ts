/**
 * Optimal assignment of rows to columns (minimum total cost), as scipy.optimize.linear_sum_assignment
 * computes it: the shortest augmenting path algorithm of Crouse (IEEE TAES 52(4), 2016) in scipy's
 * form (rectangular_lsap.cpp), step for step, so that among equally good assignments it returns
 * the same one scipy returns. davis2017-evaluation's unsupervised protocol names its per-object rows
 * after that choice, so ties must break the same way. A tall matrix (more rows than columns) is
 * solved transposed and the pairs come back sorted by row, as scipy returns them.
 */

export interface Assignment {
  /** Row indices, ascending. */
  rows: number[];
  /** The column assigned to rows[k]. */
  cols: number[];
}

/**
 * `cost[r][c]`; every row the same length. `maximize` negates the costs, as scipy's flag does.
 * Throws RangeError on NaN or -Infinity (scipy: "contains invalid numeric entries") and when no
 * complete assignment has finite cost (scipy: "cost matrix is infeasible").
 */
export function linearSumAssignment(cost: readonly (readonly number[])[], maximize = false): Assignment {
  const nr0 = cost.length;
  const nc0 = nr0 === 0 ? 0 : cost[0].length;
  for (const row of cost) if (row.length !== nc0) throw new RangeError('cost matrix rows differ in length');
  if (nr0 === 0 || nc0 === 0) return { rows: [], cols: [] };
  const transpose = nc0 < nr0;
  const nr = transpose ? nc0 : nr0;
  const nc = transpose ? nr0 : nc0;
  const c = new Float64Array(nr * nc);
  for (let i = 0; i < nr; i++) {
    for (let j = 0; j < nc; j++) {
      const v = transpose ? cost[j][i] : cost[i][j];
      c[i * nc + j] = maximize ? -v : v;
    }
  }
  for (let k = 0; k < c.length; k++) {
    if (Number.isNaN(c[k]) || c[k] === -Infinity) throw new RangeError('cost matrix contains invalid numeric entries');
  }

  const u = new Float64Array(nr);
  const v = new Float64Array(nc);
  const shortest = new Float64Array(nc);
  const path = new Int32Array(nc).fill(-1);
  const col4row = new Int32Array(nr).fill(-1);
  const row4col = new Int32Array(nc).fill(-1);
  const sr = new Uint8Array(nr);
  const sc = new Uint8Array(nc);
  const remaining = new Int32Array(nc);

  for (let curRow = 0; curRow < nr; curRow++) {
    // augmenting_path()
    let minVal = 0;
    let numRemaining = nc;
    // Filled in reverse so that a constant matrix gives the identity (scipy #11602).
    for (let it = 0; it < nc; it++) remaining[it] = nc - it - 1;
    sr.fill(0);
    sc.fill(0);
    shortest.fill(Infinity);
    let sink = -1;
    let i = curRow;
    while (sink === -1) {
      let index = -1;
      let lowest = Infinity;
      sr[i] = 1;
      for (let it = 0; it < numRemaining; it++) {
        const j = remaining[it];
        const r = minVal + c[i * nc + j] - u[i] - v[j];
        if (r < shortest[j]) {
          path[j] = i;
          shortest[j] = r;
        }
        // Among equal minima prefer a free column: it ends the path (scipy's comment).
        if (shortest[j] < lowest || (shortest[j] === lowest && row4col[j] === -1)) {
          lowest = shortest[j];
          index = it;
        }
      }
      minVal = lowest;
      if (minVal === Infinity) throw new RangeError('cost matrix is infeasible');
      const j = remaining[index];
      if (row4col[j] === -1) sink = j;
      else i = row4col[j];
      sc[j] = 1;
      remaining[index] = remaining[--numRemaining];
    }

    // update dual variables
    u[curRow] += minVal;
    for (let r = 0; r < nr; r++) {
      if (sr[r] && r !== curRow) u[r] += minVal - shortest[col4row[r]];
    }
    for (let j = 0; j < nc; j++) {
      if (sc[j]) v[j] -= minVal - shortest[j];
    }

    // augment previous solution
    let j = sink;
    for (;;) {
      const r = path[j];
      row4col[j] = r;
      const swap = col4row[r];
      col4row[r] = j;
      j = swap;
      if (r === curRow) break;
    }
  }

  if (transpose) {
    const order = Array.from({ length: nr }, (_, k) => k).sort((a, b) => col4row[a] - col4row[b]);
    return { rows: order.map((k) => col4row[k]), cols: order };
  }
  return { rows: Array.from({ length: nr }, (_, k) => k), cols: Array.from(col4row) };
}
