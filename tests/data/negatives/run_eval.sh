#!/bin/bash
# Evaluate checkpoints; nothing here trains.
set -euo pipefail
CKPT=${1:-checkpoints/latest}
for task in hellaswag arc_easy piqa; do
  python eval.py --checkpoint "$CKPT" --task "$task" --batch-size 16
done
