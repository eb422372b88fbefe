#!/usr/bin/env bash
# Every bad request must give exactly one line on stderr naming the problem,
# the exit code the README promises (2 for bad input), and leave no file at
# the output path.
# Environment: BIN (build dir), MPIEXEC, MPIEXEC_NUMPROC_FLAG, MPIEXEC_PREFLAGS
source "$(dirname "$0")/lib.sh"

gen() { "$MPIEXEC" "$MPIEXEC_NUMPROC_FLAG" 2 "${preflags[@]}" "$stackgen" "$@"; }

gen --width 3 --height 4 --mirror off --output "$work/good.h5" --quiet || { echo "FAIL: cannot make a good table"; exit 1; }

# stackgen: every numeric option, and the rest of the command line
expect_error 2 "stackgen: error: --width must be a whole number in \[1, 16\], not '0'" gen --width 0 --height 20 --output "$work/a.h5"
expect_error 2 "--width must be a whole number in \[1, 16\], not '-4'" gen --width -4 --height 20 --output "$work/a.h5"
expect_error 2 "--width must be a whole number in \[1, 16\], not 'four'" gen --width four --height 4 --output "$work/a.h5"
expect_error 2 "--width must be a whole number in \[1, 16\], not '4.5'" gen --width 4.5 --height 4 --output "$work/a.h5"
expect_error 2 "--width must be a whole number in \[1, 16\], not '99999999999999999999'" gen --width 99999999999999999999 --height 4 --output "$work/a.h5"
expect_error 2 "--height must be a whole number in \[1, 1000000\], not '-3'" gen --width 4 --height -3 --output "$work/a.h5"
expect_error 2 "--height must be a whole number in \[1, 1000000\], not '0'" gen --width 4 --height 0 --output "$work/a.h5"
expect_error 2 "--height must be a whole number in \[1, 1000000\], not '4294967297'" gen --width 4 --height 4294967297 --output "$work/a.h5"
expect_error 2 'does not fit in 64 bits' gen --width 15 --height 20 --output "$work/a.h5"
expect_error 2 'the 9x20 table needs at least .* of memory per rank .* but a node has .* of memory available' gen --width 9 --height 20 --output "$work/a.h5"
expect_error 2 "unrecognised option '--heigth'" gen --width 4 --heigth 20 --output "$work/a.h5"
expect_error 2 "unrecognised option '--schedule'" gen --width 4 --height 4 --schedule jacobi --output "$work/a.h5"
expect_error 2 '--height is required' gen --width 4 --output "$work/a.h5"
expect_error 2 "--residue 4: the pieces \\(tetrominoes\\) have 4 classes of the height sum \\(mod 4, the gcd of their sizes\\): 0 to 3" gen --width 4 --height 4 --residue 4 --output "$work/a.h5"
expect_error 2 "--residue must be a whole number in \[0, 63\], not '-1'" gen --width 4 --height 4 --residue -1 --output "$work/a.h5"
expect_error 2 "residue class 2 is given twice" gen --width 4 --height 4 --residue 2 --residue 2 --output "$work/a.h5"
expect_error 2 "--precision must be float64 or float32 \(got 'float16'\)" gen --width 4 --height 4 --precision float16 --output "$work/a.h5"
expect_error 2 "--clears must be none or tetris \(got 'all'\)" gen --width 4 --height 4 --clears all --output "$work/a.h5"
expect_error 2 "--clears-tolerance goes with --clears tetris" gen --width 4 --height 4 --clears-tolerance 1e-9 --output "$work/a.h5"
expect_error 2 "--clears-tolerance must be a number .*, not '0'" gen --width 4 --height 4 --clears tetris --clears-tolerance 0 --output "$work/a.h5"
expect_error 2 "--max-sweeps must be a whole number in \[1, 1000000\], not '0'" gen --width 4 --height 4 --clears tetris --max-sweeps 0 --output "$work/a.h5"
expect_error 2 "--extrapolate goes with --clears tetris" gen --width 4 --height 4 --extrapolate off --output "$work/a.h5"
expect_error 2 "--extrapolate on: a GPU's sweeps are plain" gen --width 4 --height 4 --clears tetris --gpu --extrapolate on --output "$work/a.h5"
expect_error 2 "--clears tetris .* needs float64 values and band" gen --width 4 --height 4 --clears tetris --precision float32 --band-precision float32 --output "$work/a.h5"
expect_error 2 "--clears tetris needs the 1 x 4 I piece, which pentominoes does not hold" gen --width 5 --height 6 --clears tetris --pieces pentominoes --output "$work/a.h5"
expect_error 2 "--kernel chooses the CPU kernel's way: give it without --gpu and --portable-kernel" gen --width 4 --height 4 --kernel rows --portable-kernel --output "$work/a.h5"
expect_error 2 "--kernel must be slice or rows \(got 'fast'\)" gen --width 4 --height 4 --kernel fast --output "$work/a.h5"
expect_error 2 "--spill FILE: not a directory" gen --width 4 --height 4 --spill "$work/none" --output "$work/a.h5"
expect_error 2 "--spill needs a directory" gen --width 4 --height 4 --spill "" --output "$work/a.h5"
expect_error 2 "--clears tetris with --portable-kernel runs on one rank" gen --width 4 --height 4 --clears tetris --portable-kernel --output "$work/a.h5"
expect_error 2 "--clears tetris writes its sweeps .* give it without --no-output" gen --width 4 --height 4 --clears tetris --no-output
"$stackgen" --plan --gpu --width 9 --height 12 --residue 0 --clears tetris --plan-ranks 1 > /dev/null && pass || fail "--plan --gpu --clears at one rank refused"
expect_error 2 "--clears tetris with --gpu runs on one rank" "$stackgen" --plan --gpu --width 9 --height 12 --residue 0 --clears tetris --plan-ranks 4
expect_error 2 "--sweep-seconds goes with --clears tetris --gpu" gen --width 4 --height 4 --clears tetris --sweep-seconds 5 --output "$work/a.h5"
expect_error 2 "--sweep-seconds must be a number >= 0 and below 1e.09, not '-1'" gen --width 4 --height 4 --clears tetris --gpu --sweep-seconds -1 --output "$work/a.h5"
# A table larger than the free disk: a 1 MB file system of its own.
if unshare -m true 2> /dev/null; then
    expect_error 2 "the 5x12 table needs .* of memory per rank .* and 1.[0-9] MB of disk, .* /mnt has 1.0 MB free: free some disk" \
        unshare -m sh -c "mount -t tmpfs -o size=1m tmpfs /mnt && exec '$stackgen' --width 5 --height 12 --output /mnt/t.h5"
else
    echo "FAIL: cannot make a mount namespace for the disk check (unshare -m)"; failures=$((failures + 1))
fi
expect_error 2 "stackgen: error: cannot write the output in '.*/missing': No such file or directory" gen --width 3 --height 4 --output "$work/missing/t.h5"
[ -e "$work/a.h5" ] && { echo "FAIL: a failed run left $work/a.h5"; failures=$((failures + 1)); }
[ -n "$(ls -A "$work" | grep -v -e '^good.h5$' -e '^out$' -e '^err$')" ] && {
    echo "FAIL: temporary files left behind:"; ls -A "$work"; failures=$((failures + 1)); }

# stackplay: every numeric option
play() { "$stackplay" --table "$work/good.h5" "$@"; }
expect_error 2 "--runs must be a whole number in \[1, 1099511627776\], not '0'" play --runs 0
expect_error 2 "--runs must be a whole number in \[1, 1099511627776\], not '-5'" play --runs -5
expect_error 2 "--runs must be a whole number in \[1, 1099511627776\], not '1e5'" play --runs 1e5
expect_error 2 "--runs must be a whole number in \[1, 1099511627776\], not '18446744073709551616'" play --runs 18446744073709551616
expect_error 2 "--seed must be a whole number >= 0, not '-1'" play --seed -1
expect_error 2 "--seed must be a whole number >= 0, not 'x'" play --seed x
expect_error 2 "--seed must be a whole number >= 0, not '18446744073709551616'" play --seed 18446744073709551616
expect_error 2 "--threads must be a whole number in \[0, 1024\], not '-2'" play --threads -2
expect_error 2 "--threads must be a whole number in \[0, 1024\], not 'two'" play --threads two
expect_error 2 "--threads must be a whole number in \[0, 1024\], not '9999999999'" play --threads 9999999999
expect_error 2 "--start-id must be a whole number >= 0, not '-1'" play --start-id -1
expect_error 2 "--start-id must be a whole number >= 0, not '99999999999999999999'" play --start-id 99999999999999999999
expect_error 2 "--start-id 125 is outside" play --start-id 125
expect_error 2 "--check-level must be a number strictly between 0 and 1, not '2'" play --check-level 2
expect_error 2 "--check-level must be a number strictly between 0 and 1, not '0'" play --check-level 0
expect_error 2 "--check-level must be a number strictly between 0 and 1, not 'nan'" play --check-level nan
expect_error 2 "--check-level must be a number strictly between 0 and 1, not '-0.1'" play --check-level -0.1
expect_error 2 "--memory-limit must be a byte count such as 512M, 16G or 2T \(at least 1M\), not '-1G'" play --memory-limit -1G
expect_error 2 "--memory-limit must be a byte count such as 512M, 16G or 2T \(at least 1M\), not '0'" play --memory-limit 0
expect_error 2 "--memory-limit must be a byte count such as 512M, 16G or 2T \(at least 1M\), not '99999999999T'" play --memory-limit 99999999999T

# stackplay: the rest of the command line
expect_error 2 "has 3 columns, the table's width is 3|has 2 columns, the table's width is 3" play --start 1,2
expect_error 2 "column 1 height 5 is outside \[0, 4\]" play --start 0,5,0
expect_error 2 "unrecognised option '--bogus'" play --bogus
expect_error 2 "--policy must be table, random, heuristic, seed001 or \"lookahead N\" with N in 1..4, not 'lookahead 9'" \
    play --policy "lookahead 9"
expect_error 2 "--check needs a policy with an exact length distribution: table or heuristic, not random" \
    play --policy random --check
expect_error 2 "--check applies to a run of games, not to --show or --explain" play --show --check
expect_error 2 "give either --show or --explain, not both" play --show --explain
expect_error 2 "give either --start or --board, not both" play --start 0,0,0 --board 0,0,0
expect_error 2 "column 0 height 9 is outside \[0, 4\]" play --explain --board 9,0,0

# stackplay without --table: the one stack_*.h5 of the current directory
mkdir "$work/none" "$work/two"
cp "$work/good.h5" "$work/two/stack_3x4.h5"; cp "$work/good.h5" "$work/two/stack_4x4.h5"
expect_error 2 "no --table given and no stack_\*.h5 table in \.: run stackgen here first" \
    bash -c "cd '$work/none' && '$stackplay' --runs 10"
expect_error 2 "no --table given and 2 tables in \. \(stack_3x4.h5, stack_4x4.h5\): choose one with --table FILE" \
    bash -c "cd '$work/two' && '$stackplay' --runs 10"

# damaged and foreign tables
echo "not hdf5" > "$work/text.h5"
expect_error 2 "stackplay: error: cannot read table 'FILE': No such file or directory" "$stackplay" --table "$work/nope.h5"
expect_error 2 "is not an HDF5 file" "$stackplay" --table "$work/text.h5"
# craft_good NAME PYTHON: a copy of good.h5 changed by PYTHON (f is the open
# file), its checksums recomputed so that only the change is wrong
craft_good() { craft "$work/good.h5" "$1" "$2" && reseal "$work/$1.h5"; }
craft_good missing "del f.attrs['format_version']"
play_file() { "$stackplay" --table "$@"; }
expect_error 2 "is not a stacking table: attribute 'format_version' is missing" play_file "$work/missing.h5"
craft_good width_array "del f.attrs['width']; f.attrs['width'] = np.array([3, 3], dtype='<i8')"
expect_error 2 "attribute 'width' is an array of 2 values, expected a single value, an integer" play_file "$work/width_array.h5"
craft_good width_string "del f.attrs['width']; f.attrs['width'] = 'three'"
expect_error 2 "attribute 'width' is not an integer" play_file "$work/width_string.h5"
craft_good fixed_string "del f.attrs['generator']; f.attrs.create('generator', np.bytes_('stackgen'), dtype='S8')"
expect_error 2 "attribute 'generator' is a fixed-length string, expected a variable-length string" play_file "$work/fixed_string.h5"
craft_good pieces_integer "del f.attrs['pieces']; f.attrs['pieces'] = np.int64(7)"
expect_error 2 "attribute 'pieces' is not a variable-length string" play_file "$work/pieces_integer.h5"
craft_good newer "f.attrs['format_version'] = np.int64(99)"
expect_error 2 "has table format version 99, this build reads versions 1 to 4" play_file "$work/newer.h5"
craft_good shape "f.attrs['height'] = np.int64(5)"
expect_error 2 "its states attribute \(125\) does not match its width and height" play_file "$work/shape.h5"
craft_good values_2d "v = f['values'][...]; del f['values']; f['values'] = v.reshape(5, 25)"
expect_error 2 "/values does not hold 125 values in one dimension" play_file "$work/values_2d.h5"
craft_good values_int "v = f['values'][...]; del f['values']; f['values'] = v.astype('<i8')"
expect_error 2 "/values does not hold float64 values" play_file "$work/values_int.h5"
# /values holds round after round (row sum 0, 1, 2, ...), rows in id order:
# value 17 of a 3x4 table is board 2,2,0 (id 12).
craft_good nan "f['values'][17] = np.nan"
expect_error 2 "the value of board 2,2,0 \(id 12\) is nan, not a number of pieces in \[0, 3\]" play_file "$work/nan.h5"
expect_error 2 "the value of board 2,2,0 \(id 12\) is nan" play_file "$work/nan.h5" --explain --board 2,2,0
craft_good infinite "f['values'][3] = np.inf"
expect_error 2 "the value of board 3,0,0 \(id 3\) is inf" play_file "$work/infinite.h5"
craft_good negative "f['values'][0] = -0.5"
expect_error 2 "the value of board 0,0,0 \(id 0\) is -0.500000" play_file "$work/negative.h5"
expect_error 2 "the value of board 0,0,0 \(id 0\) is -0.500000" play_file "$work/negative.h5" --show
craft_good too_large "f['values'][1] = 4.0"
expect_error 2 "the value of board 1,0,0 \(id 1\) is 4.000000, not a number of pieces in \[0, 3\]" play_file "$work/too_large.h5"
head -c 2000 "$work/good.h5" > "$work/truncated.h5"
expect_error 2 "'FILE' cannot be opened as HDF5: .*the file is truncated: it has 2000 bytes of the $(stat -c %s "$work/good.h5") it was written with" \
    play_file "$work/truncated.h5"

# The help the exit codes above belong to: -h is --help; every line of it in
# 80 columns; it ends with the exit status, 2 for bad input among them.
for tool in "$stackgen" "$stackplay" "$stackverify"; do
    "$tool" -h > "$work/help_short" 2>&1 && "$tool" --help > "$work/help_long" 2>&1 \
        || { echo "FAIL: $(basename "$tool") -h or --help exits non-zero"; failures=$((failures + 1)); continue; }
    cmp -s "$work/help_short" "$work/help_long" || { echo "FAIL: $(basename "$tool") -h is not --help"; failures=$((failures + 1)); }
    wide=$(awk 'length > 80' "$work/help_long" | head -1)
    [ -z "$wide" ] || { echo "FAIL: $(basename "$tool") --help has a line over 80 columns: $wide"; failures=$((failures + 1)); }
    grep -q "^Exit status:" "$work/help_long" && grep -q "^  2    bad input" "$work/help_long" \
        || { echo "FAIL: $(basename "$tool") --help does not give the exit status"; failures=$((failures + 1)); }
done

finish
