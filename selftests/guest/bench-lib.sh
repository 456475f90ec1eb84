# SPDX-License-Identifier: GPL-2.0
# What both make bench clients measure, in one place.

RUNTIME=${BENCH_RUNTIME:-8}

# load_module ours|stock
load_module() {
	case $1 in
	ours) load_our_rpcrdma "$RPCRDMA_KO" ;;
	stock) load_stock_rpcrdma ;;
	esac
}

fio_metric() {	# NAME RW BS DEPTH FIELD
	fio --name="$1" --filename=/mnt/bench.dat --size=64M --rw="$2" \
		--bs="$3" --iodepth="$4" --ioengine=libaio --direct=1 \
		--time_based --runtime="$RUNTIME" --ramp_time=1 \
		--output-format=json --output=/tmp/fio.json >/dev/null ||
		fail "fio $1 failed"
	python3 -c 'import json, sys
j = json.load(open("/tmp/fio.json"))["jobs"][0]
d, f = sys.argv[1].split(".")
v = j[d][f]
print(round(v / 1024.0, 2) if f == "bw" else round(v))' "$5"
}

# bench_round ROUND MODULE: mount, the three fio figures, unmount.
bench_round() {
	local w r i

	nfs_mount 4.2 192.0.2.1 /mnt
	# Lay the file out once, outside the measurement.
	[ -e /mnt/bench.dat ] ||
		dd if=/dev/zero of=/mnt/bench.dat bs=1M count=64 status=none
	# BENCH_JOBS picks some of the three (e.g. "write" to measure only that).
	case " ${BENCH_JOBS:-write read randread} " in *" write "*)
		w=$(fio_metric seqwrite write 1M 4 write.bw)
		echo "$1,$2,seq_write_MBps,$w" >>/out/bench.csv ;;
	esac
	case " ${BENCH_JOBS:-write read randread} " in *" read "*)
		r=$(fio_metric seqread read 1M 4 read.bw)
		echo "$1,$2,seq_read_MBps,$r" >>/out/bench.csv ;;
	esac
	case " ${BENCH_JOBS:-write read randread} " in *" randread "*)
		i=$(fio_metric randread randread 4k 16 read.iops)
		echo "$1,$2,rand_read_4k_iops,$i" >>/out/bench.csv ;;
	esac
	echo "  write ${w:--} MiB/s, read ${r:--} MiB/s, randread ${i:--} IOPS"
	umount /mnt
}
