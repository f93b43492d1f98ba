"""A numpy re-statement of davis2017-evaluation (davis2017/metrics.py, utils.py, evaluation.py and
evaluation_method.py), for the tests to run when python3 has numpy and scipy. The reference's code
is kept line for line; only its readers are replaced (PIL -> raw uint8 label maps written by the
test, cv2.dilate / skimage disk -> the same dilation with scipy.ndimage), so every number is what the
reference computes. Usage: davis2017_numpy.py MANIFEST.json TASK -> JSON on stdout.
"""
import json
import sys
import warnings

import numpy as np
from scipy import ndimage
from scipy.optimize import linear_sum_assignment

warnings.filterwarnings("ignore", category=RuntimeWarning)


def disk(r):
    """skimage.morphology.disk(r) for an integer radius."""
    r = int(r)
    grid = np.arange(-r, r + 1)
    x, y = np.meshgrid(grid, grid)
    return (x ** 2 + y ** 2 <= r ** 2).astype(np.uint8)


def dilate(b, kernel):
    """cv2.dilate(b, kernel) with the default border (pixels outside count as 0); the kernel is symmetric."""
    return ndimage.binary_dilation(b.astype(bool), structure=kernel.astype(bool)).astype(np.uint8)


def db_eval_iou(annotation, segmentation, void_pixels=None):
    annotation = annotation.astype(bool)
    segmentation = segmentation.astype(bool)
    if void_pixels is not None:
        void_pixels = void_pixels.astype(bool)
    else:
        void_pixels = np.zeros_like(segmentation)
    inters = np.sum((segmentation & annotation) & np.logical_not(void_pixels), axis=(-2, -1))
    union = np.sum((segmentation | annotation) & np.logical_not(void_pixels), axis=(-2, -1))
    j = inters / union
    if j.ndim == 0:
        j = 1 if np.isclose(union, 0) else j
    else:
        j[np.isclose(union, 0)] = 1
    return j


def db_eval_boundary(annotation, segmentation, void_pixels=None, bound_th=0.008):
    n_frames = annotation.shape[0]
    f_res = np.zeros(n_frames)
    for frame_id in range(n_frames):
        void_pixels_frame = None if void_pixels is None else void_pixels[frame_id, :, :, ]
        f_res[frame_id] = f_measure(segmentation[frame_id, :, :, ], annotation[frame_id, :, :], void_pixels_frame, bound_th=bound_th)
    return f_res


def f_measure(foreground_mask, gt_mask, void_pixels=None, bound_th=0.008):
    if void_pixels is not None:
        void_pixels = void_pixels.astype(bool)
    else:
        void_pixels = np.zeros_like(foreground_mask).astype(bool)
    bound_pix = bound_th if bound_th >= 1 else np.ceil(bound_th * np.linalg.norm(foreground_mask.shape))
    fg_boundary = _seg2bmap(foreground_mask * np.logical_not(void_pixels))
    gt_boundary = _seg2bmap(gt_mask * np.logical_not(void_pixels))
    fg_dil = dilate(fg_boundary.astype(np.uint8), disk(bound_pix))
    gt_dil = dilate(gt_boundary.astype(np.uint8), disk(bound_pix))
    gt_match = gt_boundary * fg_dil
    fg_match = fg_boundary * gt_dil
    n_fg = np.sum(fg_boundary)
    n_gt = np.sum(gt_boundary)
    if n_fg == 0 and n_gt > 0:
        precision = 1
        recall = 0
    elif n_fg > 0 and n_gt == 0:
        precision = 0
        recall = 1
    elif n_fg == 0 and n_gt == 0:
        precision = 1
        recall = 1
    else:
        precision = np.sum(fg_match) / float(n_fg)
        recall = np.sum(gt_match) / float(n_gt)
    if precision + recall == 0:
        F = 0
    else:
        F = 2 * precision * recall / (precision + recall)
    return F


def _seg2bmap(seg):
    seg = seg.astype(bool)
    seg[seg > 0] = 1
    e = np.zeros_like(seg)
    s = np.zeros_like(seg)
    se = np.zeros_like(seg)
    e[:, :-1] = seg[:, 1:]
    s[:-1, :] = seg[1:, :]
    se[:-1, :-1] = seg[1:, 1:]
    b = seg ^ e | seg ^ s | seg ^ se
    b[-1, :] = seg[-1, :] ^ e[-1, :]
    b[:, -1] = seg[:, -1] ^ s[:, -1]
    b[-1, -1] = 0
    return b


def db_statistics(per_frame_values):
    M = np.nanmean(per_frame_values)
    O = np.nanmean(per_frame_values > 0.5)
    N_bins = 4
    ids = np.round(np.linspace(1, len(per_frame_values), N_bins + 1) + 1e-10) - 1
    ids = ids.astype(np.uint8)
    D_bins = [per_frame_values[ids[i]:ids[i + 1] + 1] for i in range(0, 4)]
    D = np.nanmean(D_bins[0]) - np.nanmean(D_bins[3])
    return M, O, D


def get_all_masks(masks):
    masks = masks.astype(np.float64)
    masks_void = np.zeros_like(masks)
    for i in range(masks.shape[0]):
        masks_void[i, ...] = masks[i, ...] == 255
        masks[i, masks[i, ...] == 255] = 0
    num_objects = int(np.max(masks[0, ...]))
    tmp = np.ones((num_objects, *masks.shape))
    tmp = tmp * np.arange(1, num_objects + 1)[:, None, None, None]
    masks = (tmp == masks[None, ...])
    masks = masks > 0
    return masks, masks_void


def read_masks(res, frame_indices):
    masks = np.zeros((len(frame_indices), *res.shape[1:]))
    for ii, m in enumerate(frame_indices):
        masks[ii, ...] = res[m]
    num_objects = int(np.max(masks))
    tmp = np.ones((num_objects, *masks.shape))
    tmp = tmp * np.arange(1, num_objects + 1)[:, None, None, None]
    masks = (tmp == masks[None, ...]) > 0
    return masks


def evaluate_semisupervised(all_gt_masks, all_res_masks):
    if all_res_masks.shape[0] > all_gt_masks.shape[0]:
        raise SystemExit("In your PNG files there is an index higher than the number of objects in the sequence!")
    elif all_res_masks.shape[0] < all_gt_masks.shape[0]:
        zero_padding = np.zeros((all_gt_masks.shape[0] - all_res_masks.shape[0], *all_res_masks.shape[1:]))
        all_res_masks = np.concatenate([all_res_masks, zero_padding], axis=0)
    j_metrics_res, f_metrics_res = np.zeros(all_gt_masks.shape[:2]), np.zeros(all_gt_masks.shape[:2])
    for ii in range(all_gt_masks.shape[0]):
        j_metrics_res[ii, :] = db_eval_iou(all_gt_masks[ii, ...], all_res_masks[ii, ...], None)
        f_metrics_res[ii, :] = db_eval_boundary(all_gt_masks[ii, ...], all_res_masks[ii, ...], None)
    return j_metrics_res, f_metrics_res


def evaluate_unsupervised(all_gt_masks, all_res_masks, all_void_masks, max_n_proposals=20):
    if all_res_masks.shape[0] > max_n_proposals:
        raise SystemExit("too many proposals")
    elif all_res_masks.shape[0] < all_gt_masks.shape[0]:
        zero_padding = np.zeros((all_gt_masks.shape[0] - all_res_masks.shape[0], *all_res_masks.shape[1:]))
        all_res_masks = np.concatenate([all_res_masks, zero_padding], axis=0)
    j_metrics_res = np.zeros((all_res_masks.shape[0], all_gt_masks.shape[0], all_gt_masks.shape[1]))
    f_metrics_res = np.zeros((all_res_masks.shape[0], all_gt_masks.shape[0], all_gt_masks.shape[1]))
    for ii in range(all_gt_masks.shape[0]):
        for jj in range(all_res_masks.shape[0]):
            j_metrics_res[jj, ii, :] = db_eval_iou(all_gt_masks[ii, ...], all_res_masks[jj, ...], all_void_masks)
            f_metrics_res[jj, ii, :] = db_eval_boundary(all_gt_masks[ii, ...], all_res_masks[jj, ...], all_void_masks)
    all_metrics = (np.mean(j_metrics_res, axis=2) + np.mean(f_metrics_res, axis=2)) / 2
    row_ind, col_ind = linear_sum_assignment(-all_metrics)
    return j_metrics_res[row_ind, col_ind, :], f_metrics_res[row_ind, col_ind, :]


def main():
    manifest_path, task = sys.argv[1], sys.argv[2]
    with open(manifest_path) as f:
        manifest = json.load(f)
    J = {"M": [], "R": [], "D": [], "M_per_object": {}}
    F = {"M": [], "R": [], "D": [], "M_per_object": {}}
    objects = []
    per_frame = []
    for seq in manifest["sequences"]:
        shape = (seq["frames"], seq["height"], seq["width"])
        gt = np.fromfile(seq["gt"], dtype=np.uint8).reshape(shape)
        res = np.fromfile(seq["res"], dtype=np.uint8).reshape(shape)
        all_gt_masks, all_void_masks = get_all_masks(gt)
        frame_indices = list(range(shape[0]))
        if task == "semi-supervised":
            all_gt_masks, frame_indices = all_gt_masks[:, 1:-1, :, :], frame_indices[1:-1]
        all_res_masks = read_masks(res, frame_indices)
        if task == "unsupervised":
            j_metrics_res, f_metrics_res = evaluate_unsupervised(all_gt_masks, all_res_masks, all_void_masks)
        else:
            j_metrics_res, f_metrics_res = evaluate_semisupervised(all_gt_masks, all_res_masks)
        for ii in range(all_gt_masks.shape[0]):
            seq_name = f'{seq["name"]}_{ii+1}'
            [JM, JR, JD] = db_statistics(j_metrics_res[ii])
            J["M"].append(JM)
            J["R"].append(JR)
            J["D"].append(JD)
            J["M_per_object"][seq_name] = JM
            [FM, FR, FD] = db_statistics(f_metrics_res[ii])
            F["M"].append(FM)
            F["R"].append(FR)
            F["D"].append(FD)
            F["M_per_object"][seq_name] = FM
            objects.append([float(x) for x in (JM, JR, JD, FM, FR, FD)])
            per_frame.append([j_metrics_res[ii].tolist(), f_metrics_res[ii].tolist()])
    final_mean = (np.mean(J["M"]) + np.mean(F["M"])) / 2.
    g_res = [final_mean, np.mean(J["M"]), np.mean(J["R"]), np.mean(J["D"]), np.mean(F["M"]), np.mean(F["R"]), np.mean(F["D"])]
    names = list(J["M_per_object"].keys())
    clean = lambda x: None if np.isnan(x) else float(x)
    out = {
        "global": [clean(x) for x in g_res],
        "per_sequence": [[n, clean(J["M_per_object"][n]), clean(F["M_per_object"][n])] for n in names],
        "objects": [[clean(x) for x in o] for o in objects],
        "per_frame": per_frame,
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
