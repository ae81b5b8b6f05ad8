#!/bin/bash
# Fails on an #include that points the wrong way between burstd's layers:
#
#   tools -> app -> ingest, slurm, provider, ledger -> policy -> model -> common
#   tools -> sim -> policy
#
# A layer may include itself and anything below it; the adapters (ingest,
# slurm, provider, ledger) never include app or each other, sim never
# includes app or an adapter.  Inside provider/, one provider type's folder
# never includes another's (what they share lives in provider/ itself,
# provider/cloud and provider/http); inside policy/hiring/, one policy never
# includes another.  Prints every offending line as FILE:LINE: what.
set -uo pipefail
top=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top/burstd" || exit 2

# layer -> the layers it may include
declare -A allowed=(
    [common]="common"
    [model]="model common"
    [policy]="policy model common"
    [ingest]="ingest policy model common"
    [slurm]="slurm policy model common"
    [provider]="provider policy model common"
    [ledger]="ledger policy model common"
    [sim]="sim policy model common"
    [app]="app ingest slurm provider ledger policy model common"
    [tools]="tools app sim ingest slurm provider ledger policy model common"
)

layer_of() { # path of a file under burstd/ -> its layer
    case $1 in
    tools/*) echo tools ;;
    src/*) local rest=${1#src/}; echo "${rest%%/*}" ;;
    *) echo "" ;;
    esac
}

bad=0 files=0
while IFS= read -r file; do
    files=$((files + 1))
    from=$(layer_of "$file")
    if [ -z "${allowed[$from]+x}" ]; then
        echo "$file: in no known layer (add its folder to tests/layout/check_include_arrows.sh)"
        bad=$((bad + 1))
        continue
    fi
    while IFS=: read -r line target; do
        to=${target%%/*}
        [ -n "${allowed[$to]+x}" ] || continue # a system or Slurm header
        if [[ " ${allowed[$from]} " != *" $to "* ]]; then
            echo "$file:$line: $from includes $target ($from may include: ${allowed[$from]})"
            bad=$((bad + 1))
            continue
        fi
        # one provider type, or one hiring policy, never reaches into another
        for scope in provider policy/hiring; do
            case $file in src/$scope/*/*) ;; *) continue ;; esac
            case $target in $scope/*/*) ;; *) continue ;; esac
            own=${file#src/$scope/}; own=${own%%/*}
            theirs=${target#$scope/}; theirs=${theirs%%/*}
            [ "$scope" = provider ] && case $theirs in cloud | http) continue ;; esac
            if [ "$own" != "$theirs" ]; then
                echo "$file:$line: $scope/$own includes $target (another ${scope#policy/}'s own file)"
                bad=$((bad + 1))
            fi
        done
    done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' "$file" |
        sed -E 's|^([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]+"([^"]+)".*|\1:\2|')
done < <(find src tools -name '*.hpp' -o -name '*.cpp' | sort)

if ((bad)); then
    echo "FAIL: $bad include(s) point the wrong way in $files files"
    exit 1
fi
echo "ok: the includes of $files files point down the layers"
