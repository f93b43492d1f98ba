/** Help texts (kept together so docs/cli.md and --help are easy to compare). */

export const MAIN_HELP = `spoc-studio: evaluate and generate SPOC object-state-change segmentations from the command line.
It runs the same metric code as the SPOC Studio app (src/metrics).

Usage:
  spoc-studio eval --gt DIR --pred DIR [--json FILE] [--convention NAME] [--boundary] [--jobs N] [--report FILE]
  spoc-studio eval --task vos --gt DIR --pred DIR [--protocol NAME] [--csv DIR] [--json FILE] [--report FILE] [--davis-compat]
  spoc-studio demo --out DIR [--seed N] [--kind KIND] [--frames N] [--size WxH] [--clips N]
                   [--pred-out DIR [--pred-noise P]]
  spoc-studio convert --from FORMAT --to FORMAT IN OUT [options]
  spoc-studio serve [--port P] [--host H] [--data DIR] [--dist DIR]
  spoc-studio user add|reset-password NAME [--password-stdin] [--data DIR]
  spoc-studio user disable|enable NAME [--data DIR]
  spoc-studio token create NAME [--data DIR]
  spoc-studio blobs gc [--grace-hours H] [--dry-run] [--data DIR]
  spoc-studio pull --server URL --project ID --out DIR [--pred NAME] [--approved-only]
  spoc-studio push --server URL --project ID --pred NAME DIR
  spoc-studio help [COMMAND]
  spoc-studio --version

Commands:
  eval      score predicted masks against ground truth (SPOC mIoU table, progress, DAVIS J&F;
            --task vos: per-object J&F of multi-object masks as davis2017-evaluation)
  demo      write generated clips with exact ground truth (and optionally degraded predictions)
  convert   convert annotations between WhereToChange, DAVIS, COCO and VISOR (lossless where the
            target format can carry it; see docs/formats.md)
  serve     run the team server: the app and its accounts API on PostgreSQL (docs/server.md)
  user      create a server account, set a new password, disable or enable it (on the server machine)
  token     make a bearer token for the CLI to use against the server
  blobs     delete frame images no server project needs any more (on the server machine)
  pull      write a server project's gt (and a prediction) as mask folders for eval
  push      send predicted masks to a server project as a pred:NAME layer

Exit codes: 0 success, 1 data error (a file is unreadable, malformed or inconsistent), 2 usage error.
Run "spoc-studio help COMMAND" for the options of a command. Documentation: docs/cli.md.
`;

export const EVAL_HELP = `Usage: spoc-studio eval --gt DIR --pred DIR [options]

Scores predicted label masks against ground truth and prints a table laid out like SPOC Table 2:
rows = mean over verbs, mean over clips, each verb; columns = mIoU, mIoU_act, mIoU_trf, w/o OSC
(states fused), seen, novel, transition (mIoU of those splits). Undefined values are left blank.

Options:
  --gt DIR            ground-truth masks (required)
  --pred DIR          predicted masks (required; may be the same folder as --gt when it holds
                      <osc>/pred/masks/ next to <osc>/gt/masks/)
  --convention NAME   clip-pooled (default) | per-frame | dataset-pooled
                        clip-pooled:    per clip, I and U summed over frames; mean over clips
                        per-frame:      per clip, mean of frame IoUs; mean over clips
                        dataset-pooled: I and U summed over all frames of all clips
  --boundary          also compute DAVIS J&F (region + boundary F) per state and frame (slower)
  --json FILE         write per-frame, per-clip and summary values as JSON ("-" = stdout,
                      and the table is not printed)
  --report FILE       also write one self-contained HTML report (tables, per-verb bars,
                      progress curves, error maps of the worst frames)
  --jobs N            clips evaluated on N worker threads (default: every core; 1 when run
                      from the TypeScript sources); the output does not depend on N
  -h, --help          show this help

Layouts (detected per folder; the report says which was found):
  WhereToChange  <osc>/gt/masks/<video>/frame*.png    (<osc> = <verb>_<noun>, e.g. grating_carrot)
                 <osc>/pred/masks/<video>/frame*.png  (prediction side; preferred over gt/masks)
                 <osc>/<video>/frame*.png
  DAVIS          <video>/frame*.png  (or a DAVIS root holding Annotations/480p/<video>/)
Masks are indexed PNGs: 0 background, 1 actionable, 2 transformed. In GT, 3 is background and
4 (ambiguous), 5 (ignore) and 255 (void) are excluded. Labels 3..5 belong to the WhereToChange
layout; in the DAVIS layout only 0, 1, 2 and 255 are SPOC labels. Any other label is an error
that names the file and the labels found: a multi-object mask (index = object id) is scored
per object with --task vos.

Per-object VOS (--task vos), davis2017-evaluation's protocols on multi-object palette PNGs
(index = object id, 0 background, 255 void):
  --task vos          per object and frame J and F; per object mean, recall, decay; the global
                      table (J&F-Mean, J-Mean, J-Recall, J-Decay, F-Mean, F-Recall, F-Decay) and
                      the per-sequence table (<sequence>_<k>, J-Mean, F-Mean)
  --gt DIR            a DAVIS root (Annotations/<resolution>/<seq>/*.png, semi-supervised;
                      Annotations_unsupervised/<resolution>/<seq>/*.png, unsupervised; sequences
                      from ImageSets/2017/<set>.txt when present) or a folder of <seq>/*.png
  --pred DIR          results: <seq>/<frame>.png for every GT frame the protocol scores
  --protocol NAME     semi-supervised (default: object k against GT object k, first and last
                      frame left out) | unsupervised (optimal assignment of result objects to GT
                      objects, at most 20 result objects)
  --set NAME          the ImageSets list and the CSV names (default val)
  --resolution NAME   the Annotations sub-folder (default 480p)
  --sequences A,B     evaluate only these sequences
  --csv DIR           write global_results-<set>.csv and per-sequence_results-<set>.csv as the
                      reference writes them
  --json FILE         every per-frame value, per object and sequence ("-" = stdout)
  --report FILE       also write one self-contained HTML report (the two tables, J&F bars,
                      J and F per frame of every object)
  --davis-compat      decay bins exactly as the reference (edges cast to uint8, which wraps
                      beyond 256 frames); without it the edges stay integers

Matching: videos by name (<osc>/<video>), frames by file name without extension. A GT frame
without prediction scores as an empty prediction; a prediction without GT frame is a warning.
Optional <osc>/meta/<video>.json (DAVIS: meta/<video>.json) gives each frame's phase (initial /
transitioning / end; enables the transition column and end-state progress metrics) and which
frames are ignored: the app's export schema (frames: [{name, phase, ignored}]) or plain
"phases" / "ignored" lists. Verb, noun and seen/novel come from <osc> and the taxonomy;
DAVIS layout has verb "unknown" and no seen/novel split.
`;

export const DEMO_HELP = `Usage: spoc-studio demo --out DIR [options]

Writes generated state-change clips with their exact ground truth in the WhereToChange layout:
  <verb>_<noun>/JPEGImages_1fps/<video>/frameNNNN.jpg
  <verb>_<noun>/gt/masks/<video>/frameNNNN.png       (indexed PNG: 0 bg, 1 actionable, 2 transformed)
  <verb>_<noun>/meta/<video>.json                    (verb, noun, prompts, subset, fps, phases)
Frames are sampled at 1 fps, so --frames is also the clip length in seconds.

Options:
  --out DIR           output folder (required; created if needed)
  --seed N            integer seed (default 1); clip k uses seed N + k
  --kind KIND         grating | peeling | slicing (default: cycle through the three)
  --frames N          frames per clip (default 20)
  --size WxH          frame size (default 640x360)
  --clips N           number of clips (default 1)
  --pred-out DIR      also write a degraded copy of the GT as predictions:
                      <verb>_<noun>/pred/masks/<video>/frameNNNN.png (may equal --out)
  --pred-noise P      share of prediction frames degraded, 0..1 (default 0.3): each picked frame
                      is eroded, dilated, has its two states swapped, or is left out (missing);
                      seeded, so the same options give the same files
  -h, --help          show this help

Try:  spoc-studio demo --out demo --clips 3 --pred-out demo --pred-noise 0.4
      spoc-studio eval --gt demo --pred demo
`;

export const CONVERT_HELP = `Usage: spoc-studio convert --from FORMAT --to FORMAT IN OUT [options]

Converts annotations with the same code as the app (src/io/formats; docs/formats.md). Label maps
come out byte-identical wherever the target format can carry them; frame images are copied as
they are between folder formats.

Formats:
  wtc     WhereToChange: <verb>_<noun>/JPEGImages_<rate>fps/<video>/*.jpg (JPEGImages_1fps in the
          release; the folder is named by the clip's rate), gt/masks/<video>/*.png and
          meta/<video>.json. IN: a folder (or a .zip of one); OUT: a folder.
  davis   DAVIS: JPEGImages/<video>/*.jpg and Annotations/<video>/*.png (255 = void).
          IN: a folder (or a .zip); OUT: a folder.
  coco    COCO JSON with pycocotools RLE (one file for all clips). IN: a .json file or a folder of
          them; OUT: a .json file (or a folder, written as annotations.json).
  visor   VISOR-style polygon JSON, one file per video. IN: a .json file or a folder of them;
          OUT: a .json file for one clip, else a folder.

Options:
  --from FORMAT       format of IN (required)
  --to FORMAT         format of OUT (required)
  --source NAME       layer to convert: gt, proposal or pred:<name> (default: the one source the
                      input has, else gt)
  --fps N             frame rate for inputs that do not record one (DAVIS, plain COCO; default 1)
  --size WxH          frame size for VISOR input without info.width/height
  --verb V --noun N   verb and object for WhereToChange output of clips that have none (DAVIS,
                      VISOR and plain COCO input); they name the <verb>_<noun> folder
  --overlap POLICY    pixels claimed by both states in COCO/VISOR input: transformed (default,
                      with a warning) | actionable | error
  --ignored MODE      ignored frames in DAVIS output: void (default; all-255 masks) | painted
  --objects           read the input as objects (VISOR entities with classes, hands and contacts;
                      COCO annotations by track_id; DAVIS indices as object numbers) and write
                      objects (our objects exports are read as objects without it)
  --force             write into an existing OUT (files of the same name are overwritten)
  -h, --help          show this help

JSON formats carry no frame images: converting COCO or VISOR to a folder format writes masks
(and WhereToChange metadata) only.

Input is checked as the app's import checks it (frame image headers and sizes included), and
symbolic links are not followed out of IN. A problem stops the conversion with exit code 1 and a
message naming the file, and nothing is left in OUT (files written before a failed write are
removed; files that --force had overwritten stay overwritten).

Try:  spoc-studio demo --out demo --clips 2
      spoc-studio convert --from wtc --to coco demo demo.json
      spoc-studio convert --from coco --to davis demo.json davis
`;

const DATABASE_NOTE = `Database: DATABASE_URL (e.g. postgres://spoc:secret@db.lab:5432/spoc) names a PostgreSQL
server; without it, an embedded PostgreSQL (PGlite) keeps its files in --data DIR (default
./spoc-server-data). The schema is migrated on start. Only one process may open an embedded
database at a time: stop the server before running user, token or blobs commands on the same
--data.
`;

export const SERVE_HELP = `Usage: spoc-studio serve [options]

Runs the team server: the built app (COOP/COEP kept) and the JSON API under /api (accounts,
sessions, projects, members, roles, invites, audit log). Stops cleanly on SIGTERM or Ctrl-C.
Replication of project data (sync) is not built yet: see docs/server.md.

Options:
  --port P              port to listen on (default 8080; 0 picks a free one)
  --host H              address to listen on (default 127.0.0.1; 0.0.0.0 for every interface,
                        normally behind a reverse proxy that terminates TLS)
  --data DIR            folder of the embedded database (default ./spoc-server-data)
  --dist DIR            the built app to serve (default dist/ of this checkout; "npm run build")
  --public-origin URL   the origin people open, e.g. https://annotate.lab.example (checked
                        against the Origin of every change; default: the request's own host)
  --trust-proxy         trust X-Forwarded-For/-Proto from the proxy in front (https cookies)
  -h, --help            show this help

${DATABASE_NOTE}
Try:  spoc-studio user add ana && spoc-studio serve
`;

export const USER_HELP = `Usage: spoc-studio user add NAME [--password-stdin] [--data DIR]
       spoc-studio user reset-password NAME [--password-stdin] [--data DIR]
       spoc-studio user disable NAME [--data DIR]
       spoc-studio user enable NAME [--data DIR]

add             creates an account (usernames: 2-40 letters, digits, ".", "_", "-"; unique
                without regard to case)
reset-password  sets a new password and signs the user out of every browser
disable         locks the account out: sign-in is refused, its sessions are signed out and its
                CLI tokens revoked at once; everything it wrote stays, under its name
enable          lets a disabled account sign in again with its password (old sessions and
                tokens stay revoked)

Options:
  --password-stdin   read the password from standard input (one trailing newline is dropped;
                     at least 10 characters); without it a random password is made and printed once
  --data DIR         folder of the embedded database (default ./spoc-server-data)
  -h, --help         show this help

${DATABASE_NOTE}`;

export const TOKEN_HELP = `Usage: spoc-studio token create NAME [--data DIR]

Prints a new bearer token for user NAME, once (only its hash is stored). The CLI sends it as
"Authorization: Bearer <token>"; it acts as that user, with their project roles.

Options:
  --data DIR         folder of the embedded database (default ./spoc-server-data)
  -h, --help         show this help

${DATABASE_NOTE}`;

export const BLOBS_HELP = `Usage: spoc-studio blobs gc [--grace-hours H] [--dry-run] [--data DIR]

Deletes the server's frame images that nothing needs any more: a project's reference to an image
that none of its frames shows (the frame's image was replaced, or its frame row never arrived), then
every image no project references (also those of deleted projects). Only what was last uploaded
more than the grace period ago: an upload whose push is still on its way is kept. Clips in a
project's trash keep their images. Prints what it did; run it from cron as often as you like.

Options:
  --grace-hours H    keep anything uploaded in the last H hours (default 24)
  --dry-run          report what would be deleted, delete nothing
  --data DIR         folder of the embedded database (default ./spoc-server-data)
  -h, --help         show this help

${DATABASE_NOTE}`;

const TOKEN_NOTE = `Token: the SPOC_TOKEN environment variable, or --token-file FILE (a file holding it), as
"spoc-studio token create NAME" printed it; the CLI acts as that user, with their project role.
There is no --token option on purpose: a command line is visible to every user of the machine
(ps) and is kept in shell history.
`;

export const PULL_HELP = `Usage: spoc-studio pull --server URL --project ID --out DIR [options]

Pulls every row of a server project (page by page, GET /api/projects/ID/sync/pull), rebuilds each
frame's mask as the replay of its revisions in cursor order (what every browser shows), and
writes the WhereToChange layout that "spoc-studio eval" reads, with the app's own writer:
  <verb>_<noun>/gt/masks/<video>/<frame>.png     the gt layer of every frame that has one
  <verb>_<noun>/meta/<video>.json                frames, phases, ignored frames
  <verb>_<noun>/pred/masks/<video>/<frame>.png   the pred:NAME layer (with --pred)
  <verb>_<noun>/pred/meta/<video>.json
Clips in the trash are not on the server. Clips that are not approved are written too, and
listed with their status on stderr (--approved-only leaves them out).

Options:
  --server URL        the team server, e.g. https://annotate.lab.example (required)
  --project ID        the project's id, as in the app's address (required)
  --out DIR           output folder (required; must be empty unless --force)
  --pred NAME         also write the prediction pred:NAME (one per pull; pull again into another
                      folder for another prediction)
  --approved-only     leave out clips that are not approved
  --token-file FILE   read the token from FILE instead of SPOC_TOKEN
  --force             write into a non-empty DIR (files of the same name are overwritten)
  -h, --help          show this help

${TOKEN_NOTE}
Errors (exit 1): the server cannot be reached, refuses the token (401) or has no such project
for this user (404).

Try:  SPOC_TOKEN=$(cat ~/.spoc-token) spoc-studio pull --server https://annotate.lab.example \\
        --project 0f6c... --out pulled --pred sam2
      spoc-studio eval --gt pulled --pred pulled
`;

export const PUSH_HELP = `Usage: spoc-studio push --server URL --project ID --pred NAME DIR

Sends predicted masks to a server project as the layer pred:NAME. DIR holds one folder of PNG
masks per clip, in any layout "eval" reads (<verb>_<noun>/pred/masks/<video>/, gt/masks/<video>/,
DAVIS Annotations/<video>/, <video>/). Folders are matched to the server's clips by name (or by the
name of the video a clip was imported from) and masks to frames by file name, as the app's
"prediction for the whole project" import does; every problem is listed and then nothing is sent.

Each frame whose mask differs from the server's pred:NAME layer becomes one revision (the whole
frame as its box, by the token's user), sent in batches the server accepts; a frame whose mask
already equals the server's is skipped, so running push again sends nothing. Rows the server
refuses are printed one per line, and the exit code is then 1. Adding prediction layers needs the
reviewer or manager role.

Options:
  --server URL        the team server (required)
  --project ID        the project's id (required)
  --pred NAME         the prediction's name (required): the layer becomes pred:NAME
  --token-file FILE   read the token from FILE instead of SPOC_TOKEN
  -h, --help          show this help

${TOKEN_NOTE}`;

export const HELP: Record<string, string> = {
  eval: EVAL_HELP,
  demo: DEMO_HELP,
  convert: CONVERT_HELP,
  serve: SERVE_HELP,
  user: USER_HELP,
  token: TOKEN_HELP,
  blobs: BLOBS_HELP,
  pull: PULL_HELP,
  push: PUSH_HELP,
};
