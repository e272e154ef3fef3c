#!/bin/bash
export HF_ENDPOINT=https://hf-mirror.com
# bash run_scripts/main_100B.sh

bash run_scripts/hed_scripts_1B_100B/adamw.sh
# bash run_scripts/hed_scripts_1B_100B/LLR.sh