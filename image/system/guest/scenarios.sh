#!/bin/sh
# The system test's scenarios, run inside the guest by /init. Each check prints one line the host reads:
#   RESULT <scenario> PASS|FAIL <what was checked or what went wrong>
# The appliance is driven through its own command line (`appliance hal ...`), and, in the daemon scenario, as
# the running `appliance run` through its console (image/system/daemon-driver.py on the host).
app=/usr/bin/appliance
failures=0

pass() { echo "RESULT $1 PASS $2"; }
fail() { echo "RESULT $1 FAIL $2"; failures=$((failures + 1)); }
# check NAME DESCRIPTION COMMAND...: passes when the command succeeds.
check() { name=$1 what=$2; shift 2; if "$@"; then pass "$name" "$what"; else fail "$name" "$what"; fi; }
show() { sed 's/^/    | /' "$1"; }

# Loads a module with the ones it depends on, in the order the host worked out from modules.dep.
load() {
    module=$1; shift
    for file in $(sed -n "s/^$module //p" /modules/order); do
        name=$(basename "$file" .ko)
        [ -d /sys/module/$(echo "$name" | tr - _) ] && continue
        if [ "$name" = "$module" ]; then insmod "/modules/$file" "$@"; else insmod "/modules/$file"; fi || return 1
    done
}

# Waits up to $2 seconds for a line matching $3 in file $1.
wait_for() {
    n=0
    while ! grep -q "$3" "$1" 2>/dev/null; do
        n=$((n + 1)); [ $n -gt $(($2 * 10)) ] && return 1
        sleep 0.1
    done
}

# Runs a command that must fail; its stderr must contain every further argument.
expect_error() {
    name=$1 what=$2 cmd=$3; shift 3
    if sh -c "$cmd" >/tmp/expect.out 2>&1; then fail "$name" "$what: succeeded"; show /tmp/expect.out; return; fi
    for text in "$@"; do
        grep -qF -- "$text" /tmp/expect.out || { fail "$name" "$what: no '$text' in the message"; show /tmp/expect.out; return; }
    done
    pass "$name" "$what: $(head -c 200 /tmp/expect.out | head -1)"
}

# ---- I2C: the WM8960 driver on i2c-stub ---------------------------------------------------------------------
i2c() {
    load i2c-dev && load i2c-stub chip_addr=0x1a || { fail i2c.modules "loading i2c-dev and i2c-stub"; return; }
    bus=""
    for d in /sys/class/i2c-dev/i2c-*; do grep -q "SMBus stub" "$d/name" && bus=${d##*/i2c-}; done
    [ -n "$bus" ] || { fail i2c.bus "no i2c-stub adapter in /sys/class/i2c-dev"; return; }
    pass i2c.bus "i2c-stub is /dev/i2c-$bus, chip at 0x1a"

    if ! $app hal i2c recipe --bus "$bus" --address 0x1a --codec wm8960 --operation power-up >/tmp/recipe.out 2>&1; then
        fail i2c.recipe "appliance hal i2c recipe failed"; show /tmp/recipe.out; return
    fi
    grep '^power-up ' /tmp/recipe.out > /tmp/recipe.power-up
    if diff /system/wm8960-power-up.golden /tmp/recipe.power-up > /tmp/recipe.diff; then
        pass i2c.recipe "WM8960 power-up: $(wc -l < /tmp/recipe.power-up) writes, as the golden trace"
    else
        fail i2c.recipe "WM8960 power-up writes differ from the golden trace"; show /tmp/recipe.diff
    fi

    # Every write is SMBus write-byte-data with command reg<<1|bit8 and the low 8 bits as data: the stub must
    # hold the last value of each register there, read back by the project's bus and by i2cget.
    ok=0 bad=0
    grep ' write ' /tmp/recipe.out | while read -r phase _ reg value; do
        echo "$(( (reg << 1) | (value >> 8) )) $(( value & 0xff ))"
    done > /tmp/writes
    for command in $(cut -d' ' -f1 /tmp/writes | sort -n -u); do
        want=$(grep "^$command " /tmp/writes | tail -1 | cut -d' ' -f2)
        ours=$($app hal i2c get --bus "$bus" --address 0x1a --layout 8+8 --register "$command" 2>&1)
        theirs=$(i2cget -y "$bus" 0x1a "$(printf 0x%02x "$command")" b 2>&1)   # i2cget reads hex
        if [ "$((ours))" = "$want" ] && [ "$((theirs))" = "$want" ]; then ok=$((ok + 1))
        else bad=$((bad + 1)); echo "    | command $command: expected $want, appliance read $ours, i2cget read $theirs"; fi
    done
    if [ $bad -eq 0 ] && [ $ok -gt 0 ]; then pass i2c.registers "$ok stub registers hold the writes (appliance and i2cget agree)"
    else fail i2c.registers "$bad of $((ok + bad)) stub registers differ"; fi

    expect_error i2c.absent "a read from absent 0x1b gives the typed I2CError" \
        "$app hal i2c get --bus $bus --address 0x1b --register 0" \
        "on i2c-$bus address 0x1b failed" "I2C read"
    expect_error i2c.nobus "an absent bus gives the typed I2CError" \
        "$app hal i2c get --bus 9 --address 0x1a --register 0" "cannot open /dev/i2c-9" "No such I2C bus"
}

# ---- GPIO: a gpio-sim chip found by its label ------------------------------------------------------------------
gpio() {
    load gpio-sim || { fail gpio.modules "loading gpio-sim"; return; }
    mkdir -p /sys/kernel/config && mount -t configfs none /sys/kernel/config
    cfg=/sys/kernel/config/gpio-sim/rig
    mkdir $cfg $cfg/bank0 && echo 8 > $cfg/bank0/num_lines && echo appliance-sim > $cfg/bank0/label \
        && echo 1 > $cfg/live || { fail gpio.chip "configuring gpio-sim through configfs"; return; }
    sim=/sys/devices/platform/$(cat $cfg/dev_name)/$(cat $cfg/bank0/chip_name)
    $app hal gpio chips > /tmp/chips.out 2>&1
    check gpio.chip "chip labelled appliance-sim listed ($(grep appliance-sim /tmp/chips.out | cut -d' ' -f2))" \
        grep -q "label=appliance-sim" /tmp/chips.out

    # Input line 0: pull-up bias, 100 ms debounce (generous: TCG is slow). Two bursts of bounce, each ending
    # in a level held for 600 ms, must give exactly two debounced changes: to 0, then back to 1.
    $app hal gpio watch --chip appliance-sim --line 0 --bias pull-up --debounce-ms 100 --count 2 \
        --timeout-ms 30000 > /tmp/watch.out 2>&1 &
    watcher=$!
    wait_for /tmp/watch.out 20 '^ready' || { fail gpio.input "the watcher did not start"; show /tmp/watch.out; return; }
    check gpio.bias "the pull-up bias reached the simulated line (sim_gpio0/pull)" \
        [ "$(cat $sim/sim_gpio0/pull)" = pull-up ]
    for p in down up down up down; do echo pull-$p > $sim/sim_gpio0/pull; done
    sleep 0.6
    for p in up down up; do echo pull-$p > $sim/sim_gpio0/pull; done
    sleep 0.6
    wait $watcher; status=$?
    show /tmp/watch.out
    changes=$(grep '^change' /tmp/watch.out | cut -d' ' -f2 | tr -d '\n')
    edges=$(grep -c '^edge' /tmp/watch.out)
    # Each change must be one burst: the second starts after the 600 ms pause that ended the first (a burst
    # split in two would also read '01', but with both changes inside the first burst).
    grep '^change' /tmp/watch.out > /tmp/changes
    last_of_first=$(sed -n '1s/.*last-edge-ns=\([0-9]*\).*/\1/p' /tmp/changes)
    first_of_second=$(sed -n '2s/.*first-edge-ns=\([0-9]*\).*/\1/p' /tmp/changes)
    gap_ms=$(( (${first_of_second:-0} - ${last_of_first:-0}) / 1000000 ))
    check gpio.debounce "8 sim writes in 2 bursts: $edges raw edges, debounced changes '$changes' (want '01'), ${gap_ms} ms apart" \
        [ $status -eq 0 -a "$changes" = 01 -a "$edges" -ge 2 -a "$gap_ms" -ge 400 ]
    # Kernel timestamps: present (non-zero) and never going backwards.
    stamps=$(sed -n 's/.* ns=\([0-9]*\).*/\1/p' /tmp/watch.out)
    previous=0 ordered=yes
    for s in $stamps; do [ "$s" -gt 0 ] && [ "$s" -ge "$previous" ] || ordered=no; previous=$s; done
    check gpio.timestamps "edge timestamps present and in order ($(echo $stamps | wc -w) stamps)" \
        [ -n "$stamps" -a $ordered = yes ]

    # Output line 1 driven to 1: the simulated line's value reads 1 in sysfs while held.
    $app hal gpio set --chip appliance-sim --line 1 --value 1 --hold-ms 4000 > /tmp/set.out 2>&1 &
    setter=$!
    if wait_for /tmp/set.out 20 '^set'; then
        check gpio.output "output line 1 driven to 1 reads back 1 from sim_gpio1/value" [ "$(cat $sim/sim_gpio1/value)" = 1 ]
    else
        fail gpio.output "the setter did not start"; show /tmp/set.out
    fi
    wait $setter

    # Input line 2: edges lost in the kernel's event queue. The watcher holds its event thread for 3 s after
    # the first edge; meanwhile 41 more edges arrive. The kernel keeps 16 per one-line request
    # (drivers/gpio/gpiolib-cdev.c linereq_create: event_buffer_size 16 * num_lines) and drops the oldest
    # (linereq_put_event), so the reader must see a sequence gap of 41 - 16 = 25, read the line again and
    # report it; with libgpiod v1 (no sequence numbers, lineevent_irq_thread drops the newest) the queue ends
    # on a rising edge while the line is low, so the re-read reports an unknown loss. Either way the last
    # debounced change must be the line's real level. The watcher runs for a fixed 9 s (stall 3 s, the flood,
    # then the 100 ms debounce): edges that waited in the queue are already old when the debouncer sees them,
    # so how many changes it reports on the way depends on the guest's timing (ending on a count once cut the
    # batch off before the gap was read); only the last change is certain.
    $app hal gpio watch --chip appliance-sim --line 2 --bias pull-down --debounce-ms 100 --stall-ms 3000 \
        --for-ms 9000 > /tmp/flood.out 2>&1 &
    flooder=$!
    if wait_for /tmp/flood.out 20 '^ready'; then
        echo pull-up > $sim/sim_gpio2/pull
        if wait_for /tmp/flood.out 20 '^stalled'; then
            n=0
            while [ $n -lt 41 ]; do
                n=$((n + 1))
                if [ $((n % 2)) = 1 ]; then echo pull-down > $sim/sim_gpio2/pull; else echo pull-up > $sim/sim_gpio2/pull; fi
            done
        fi
        wait $flooder; status=$?
        show /tmp/flood.out
        reread=$(grep '^reread' /tmp/flood.out | head -1)
        last_change=$(grep '^change' /tmp/flood.out | tail -1 | cut -d' ' -f2)
        level=$(cat $sim/sim_gpio2/value)
        # gpio-sim can merge two pulls written back to back into one edge on a loaded guest (the queue then
        # ends on two falling edges), so the loss is checked against the kernel's own sequence numbers: the
        # first event read after the stall says how many were dropped (seq gap - 1); 25 when every pull made
        # an edge.
        after=$(grep '^edge' /tmp/flood.out | sed -n 2p | sed -n 's/.* seq=\([0-9]*\).*/\1/p')
        before=$(grep '^edge' /tmp/flood.out | sed -n 1p | sed -n 's/.* seq=\([0-9]*\).*/\1/p')
        want=unknown
        [ -n "$after" ] && [ -n "$before" ] && want=$((after - before - 1))
        echo "$reread" | grep -Eq "^reread falling .*lost=($want|unknown)\$" && gap=yes || gap=no
        check gpio.overflow "41 edges into a stalled reader: '$reread' (want falling, lost=$want from the kernel's sequence gap, or lost=unknown), last change $last_change, line $level" \
            [ $status -eq 0 -a $gap = yes -a "$level" = 0 -a "$last_change" = 0 ]
    else
        fail gpio.overflow "the watcher did not start"; show /tmp/flood.out
    fi
    expect_error gpio.nochip "an absent chip label gives the typed GPIOError" \
        "$app hal gpio set --chip no-such-chip --line 0 --value 1 --hold-ms 0" "no-such-chip"
}

# ---- ALSA: snd-aloop bit-exact, typed open errors, snd-dummy -------------------------------------------------
alsa() {
    load snd-aloop && load snd-dummy || { fail alsa.modules "loading snd-aloop and snd-dummy"; return; }
    check alsa.cards "Loopback and Dummy cards present" grep -q Loopback /proc/asound/cards
    # Big buffers (16 x 4096 frames, 1.4 s): under TCG a process can stall for a while, and an xrun would
    # put a gap into the signal.
    frames=$(( 48000 * 6 )) big="--period-frames 4096 --periods 16"
    $app hal pcm capture --device hw:Loopback,1,0 $big --frames $frames /tmp/capture.wav > /tmp/capture.out 2>&1 &
    capturer=$!
    wait_for /tmp/capture.out 20 '^opened' || { fail alsa.loopback "the capture did not open"; show /tmp/capture.out; }
    if $app hal pcm play --device hw:Loopback,0,0 $big /system/signal.wav > /tmp/play.out 2>&1; then :; else
        fail alsa.loopback "playing into hw:Loopback,0,0 failed"; show /tmp/play.out
    fi
    wait $capturer || { fail alsa.loopback "capturing from hw:Loopback,1,0 failed"; show /tmp/capture.out; }
    show /tmp/play.out; show /tmp/capture.out
    if $app hal pcm compare --reference /system/signal.wav --capture /tmp/capture.wav > /tmp/compare.out 2>&1; then
        pass alsa.loopback "$(cat /tmp/compare.out)"
    else
        fail alsa.loopback "the capture is not the signal"; show /tmp/compare.out
    fi

    # Busy: one stream holds hw:Loopback,0,1; a second open of it gets the typed busy error.
    $app hal pcm open --device hw:Loopback,0,1 --hold-ms 5000 > /tmp/hold.out 2>&1 &
    holder=$!
    if wait_for /tmp/hold.out 20 '^opened'; then
        expect_error alsa.busy "a second open of a held PCM" \
            "$app hal pcm open --device hw:Loopback,0,1" "playback PCM 'hw:Loopback,0,1' is busy"
    else
        fail alsa.busy "the holder did not open"; show /tmp/hold.out
    fi
    kill $holder 2>/dev/null; wait $holder 2>/dev/null
    expect_error alsa.badname "an unknown card" "$app hal pcm open --device hw:NoSuchCard" \
        "no playback PCM 'hw:NoSuchCard'"
    expect_error alsa.format "snd-dummy refuses S32_LE" "$app hal pcm open --device hw:Dummy,0,0 --format S32_LE" \
        "refuses format S32_LE" "pick one of:"
    if $app hal pcm play --device hw:Dummy,0,0 /system/signal.wav > /tmp/dummy.out 2>&1; then
        pass alsa.dummy "$(tail -1 /tmp/dummy.out)"
    else
        fail alsa.dummy "playing into hw:Dummy,0,0 failed"; show /tmp/dummy.out
    fi
    alsa_errors
}

# ---- ALSA error paths on snd-aloop, held against the kernel's own view of the stream -------------------------
# While the appliance stands stalled, the substream's /proc/asound/.../status (sound/core/pcm.c
# snd_pcm_substream_proc_status_read, from snd_pcm_status64) shows the state, the trigger time of the stop,
# avail, hw_ptr and appl_ptr: the expected values come from there, not from the appliance.

# field FILE NAME: the value of "NAME : value" in a status file.
field() { sed -n "s/^$2 *: *//p" "$1" | head -1; }
# Waits up to $3 tenths of a second for "state: $2" in status file $1, then copies it to $4.
wait_state() {
    n=0
    while ! grep -q "^state: $2" "$1" 2>/dev/null; do n=$((n + 1)); [ $n -gt $3 ] && break; sleep 0.1; done
    cp "$1" "$4"
}
# out_field FILE KEY: the value of key=value on the appliance's result line.
out_field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" "$1" | tail -1; }
# A kernel "sec.nsec" time as nanoseconds (string-wise, no overflow), without leading zeros.
ns_of() { echo "${1%.*}${1#*.}" | sed 's/^0*//'; }

alsa_errors() {
    # Underrun: 16384 frames played (start at the buffer), then no more for 4 s. The kernel stops a playback
    # when avail reaches the stop threshold, the buffer size (pcm_lib.c snd_pcm_update_state): everything
    # written has played, so the underrun's frame is the kernel's appl_ptr.
    st=/proc/asound/Loopback/pcm0p/sub2/status
    $app hal pcm underrun --device hw:Loopback,0,2 --frames 16384 --stall-ms 4000 > /tmp/under.out 2>&1 &
    p=$!
    if wait_for /tmp/under.out 30 '^stalled'; then
        wait_state $st XRUN 35 /tmp/under.status
        wait $p; status=$?
        show /tmp/under.out; show /tmp/under.status
        frame=$(out_field /tmp/under.out frame) appl=$(field /tmp/under.status appl_ptr) hw=$(field /tmp/under.status hw_ptr)
        check alsa.underrun "playback underrun recovered: xruns $(out_field /tmp/under.out xruns), frame $frame; kernel stopped in $(field /tmp/under.status state) with appl_ptr $appl hw_ptr $hw" \
            [ $status -eq 0 -a "$(field /tmp/under.status state)" = XRUN -a "$(out_field /tmp/under.out xruns)" = 1 \
              -a "$frame" = "$appl" -a "${hw:-0}" -ge "${appl:-1}" ]
    else
        fail alsa.underrun "the player did not start"; show /tmp/under.out; kill $p 2>/dev/null
    fi

    # Overrun: 16384 frames read, then none for 4 s. The kernel stops a capture when avail reaches the
    # buffer size; the overrun's frame is where it stopped (hw_ptr), its time the stop's trigger time; the
    # frames of the stopped time are lost too, so the position afterwards is ahead by about the stall.
    st=/proc/asound/Loopback/pcm1c/sub3/status
    stall=4000
    $app hal pcm overrun --device hw:Loopback,1,3 --frames 16384 --stall-ms $stall > /tmp/over.out 2>&1 &
    p=$!
    if wait_for /tmp/over.out 30 '^stalled'; then
        wait_state $st XRUN 35 /tmp/over.status
        wait $p; status=$?
        show /tmp/over.out; show /tmp/over.status
        frame=$(out_field /tmp/over.out frame) position=$(out_field /tmp/over.out position)
        hw=$(field /tmp/over.status hw_ptr) appl=$(field /tmp/over.status appl_ptr)
        stopped=$(out_field /tmp/over.out stopped-ns) kernel_stop=$(ns_of "$(field /tmp/over.status trigger_time)")
        gap=$(( ${position:-0} - ${frame:-0} )) least=$(( (stall - 1000) * 48 ))
        check alsa.overrun "capture overrun recovered after $(out_field /tmp/over.out read) frames read: frame $frame (kernel hw_ptr $hw, appl_ptr $appl), stopped at $stopped ns (kernel trigger_time $kernel_stop ns), $gap frames lost after the stop (at least $least)" \
            [ $status -eq 0 -a "$(field /tmp/over.status state)" = XRUN -a "$(out_field /tmp/over.out xruns)" = 1 \
              -a "$(out_field /tmp/over.out read)" = 16384 -a "$appl" = 16384 \
              -a "$frame" = "$hw" -a "$stopped" = "$kernel_stop" -a $gap -ge $least ]
    else
        fail alsa.overrun "the capture did not start"; show /tmp/over.out; kill $p 2>/dev/null
    fi

    # The tail of a drained capture: after 16384 frames and 100 ms unread, a drain; the kernel's view of the
    # stopped stream gives the frames waiting (avail); the appliance must read exactly those, then end.
    st=/proc/asound/Loopback/pcm1c/sub4/status
    $app hal pcm tail --device hw:Loopback,1,4 --period-frames 1024 --periods 16 --frames 16384 --wait-ms 100 \
        --hold-ms 3000 > /tmp/tail.out 2>&1 &
    p=$!
    if wait_for /tmp/tail.out 30 '^drained'; then
        sleep 0.5; cp $st /tmp/tail.status
        wait $p; status=$?
        show /tmp/tail.out; show /tmp/tail.status
        tail=$(out_field /tmp/tail.out frames) avail=$(field /tmp/tail.status avail)
        read=$(out_field /tmp/tail.out read) position=$(out_field /tmp/tail.out position)
        check alsa.tail "drained capture: tail of $tail frames read to the end (kernel: $(field /tmp/tail.status state), avail $avail), position $position = $read + $tail" \
            [ $status -eq 0 -a "$read" = 16384 -a "${tail:-0}" -gt 0 -a "$tail" = "$avail" -a "$position" = $((read + tail)) \
              -a "$(out_field /tmp/tail.out state)" = setup ]
    else
        fail alsa.tail "the capture did not start"; show /tmp/tail.out; kill $p 2>/dev/null
    fi

    # The same on a device without pause (the Pi's bcm2835-i2s has none: its DMA engine offers no
    # device_pause, so soc-generic-dmaengine-pcm.c sets no SNDRV_PCM_INFO_PAUSE), forced with --no-pause:
    # the stream must not be drained (the kernel refuses reads from DRAINING, pcm_lib.c
    # pcm_accessible_state) but run on, RUNNING in the kernel's view, while the frames waiting at the drain
    # are read from the ring within a buffer time (32 x 2048 frames, 1.4 s; held 400 ms), then it ends.
    st=/proc/asound/Loopback/pcm1c/sub6/status
    $app hal pcm tail --device hw:Loopback,1,6 --period-frames 2048 --periods 32 --frames 16384 --wait-ms 100 \
        --hold-ms 400 --no-pause > /tmp/tailnp.out 2>&1 &
    p=$!
    if wait_for /tmp/tailnp.out 30 '^drained'; then
        cp $st /tmp/tailnp.status
        wait $p; status=$?
        show /tmp/tailnp.out; show /tmp/tailnp.status
        tail=$(out_field /tmp/tailnp.out frames) avail=$(field /tmp/tailnp.status avail)
        read=$(out_field /tmp/tailnp.out read) position=$(out_field /tmp/tailnp.out position)
        drained=$(sed -n 's/^drained .* position=\([^ ]*\).*/\1/p' /tmp/tailnp.out)
        check alsa.tailnopause "drained capture without pause: tail of $tail frames read to the end (kernel while held: $(field /tmp/tailnp.status state), avail $avail), position $position = $read + $tail = position at the drain $drained" \
            [ $status -eq 0 -a "$read" = 16384 -a "${tail:-0}" -gt 0 -a "$position" = $((read + tail)) \
              -a "$drained" = "$position" -a "$(field /tmp/tailnp.status state)" = RUNNING -a "${avail:-0}" -ge "$tail" \
              -a "$(out_field /tmp/tailnp.out pause)" = false -a "$(out_field /tmp/tailnp.out xruns)" = 0 \
              -a "$(out_field /tmp/tailnp.out state)" = setup ]
    else
        fail alsa.tailnopause "the capture did not start"; show /tmp/tailnp.out; kill $p 2>/dev/null
    fi

    # Suspend: the PM core's test mode suspends every device (snd-aloop's PCMs get SUSPENDED: pcm.c
    # do_pcm_suspend -> snd_pcm_suspend_all), waits, and resumes, with no firmware needed
    # (kernel/power/suspend.c suspend_test(TEST_DEVICES), /sys/power/pm_test, CONFIG_PM_DEBUG).
    if [ -w /sys/power/pm_test ] && grep -q freeze /sys/power/state; then
        echo devices > /sys/power/pm_test
        [ -w /sys/module/suspend/parameters/pm_test_delay ] && echo 2 > /sys/module/suspend/parameters/pm_test_delay
        $app hal pcm suspend --device hw:Loopback,0,5 --periods 16 --seconds 12 > /tmp/suspend.out 2>&1 &
        p=$!
        if wait_for /tmp/suspend.out 30 '^playing'; then
            sleep 1
            echo freeze > /sys/power/state 2>/tmp/suspend.err; sstatus=$?
            cp /proc/asound/Loopback/pcm0p/sub5/status /tmp/suspend.status
            wait $p; status=$?
            show /tmp/suspend.out; show /tmp/suspend.err; show /tmp/suspend.status
            check alsa.suspend "system suspend (pm_test devices, exit $sstatus) met and resumed: suspends $(out_field /tmp/suspend.out suspends), xruns $(out_field /tmp/suspend.out xruns), $(out_field /tmp/suspend.out written) frames written" \
                [ $status -eq 0 -a $sstatus -eq 0 -a "$(out_field /tmp/suspend.out suspends)" = 1 \
                  -a "$(out_field /tmp/suspend.out written)" -ge $((12 * 48000)) ]
        else
            fail alsa.suspend "the player did not start"; show /tmp/suspend.out; kill $p 2>/dev/null
        fi
        echo none > /sys/power/pm_test
    else
        fail alsa.suspend "this kernel offers no way to force a suspend here: /sys/power/pm_test $( [ -e /sys/power/pm_test ] && echo present || echo absent), /sys/power/state '$(cat /sys/power/state 2>/dev/null)'"
    fi
}

# ---- The running appliance: `appliance run` on a board made of the simulated drivers -----------------------
# The guest builds the board (gpio-sim chip with named lines, the WM8960 on a fresh i2c-stub, snd-aloop),
# writes its board file, starts the daemon with its console on /dev/hvc0 (a virtio console: its other end is a
# socket on the host) and then serves shell commands on /dev/hvc1 for the host's driver
# (image/system/daemon-driver.py), which talks to the console, judges the checks and sends its RESULT lines
# back here to be logged. Line roles on the chip (offsets, named in configfs so `gpioinfo`-style tools show
# them): 0 play (remote button), 1 jack (low when a plug is in).
board_file=/system/test-board.yaml
daemon() {
    # A fresh stub: the earlier i2c scenario left its own writes in the registers.
    [ -d /sys/module/i2c_stub ] && rmmod i2c_stub
    load i2c-dev && load i2c-stub chip_addr=0x1a && load gpio-sim && load snd-aloop \
        || { fail daemon.modules "loading i2c-stub, gpio-sim and snd-aloop"; return; }
    bus=""
    for d in /sys/class/i2c-dev/i2c-*; do grep -q "SMBus stub" "$d/name" && bus=${d##*/i2c-}; done
    [ -n "$bus" ] || { fail daemon.board "no i2c-stub adapter"; return; }
    mkdir -p /sys/kernel/config
    grep -q ' /sys/kernel/config ' /proc/mounts || mount -t configfs none /sys/kernel/config
    cfg=/sys/kernel/config/gpio-sim/board
    mkdir $cfg $cfg/bank0 && echo 4 > $cfg/bank0/num_lines && echo appliance-board > $cfg/bank0/label \
        && mkdir $cfg/bank0/line0 $cfg/bank0/line1 && echo play > $cfg/bank0/line0/name \
        && echo jack > $cfg/bank0/line1/name && echo 1 > $cfg/live \
        || { fail daemon.board "configuring the gpio-sim chip through configfs"; return; }
    sim=/sys/devices/platform/$(cat $cfg/dev_name)/$(cat $cfg/bank0/chip_name)
    # Idle levels before the daemon looks: button released (high, active low), no plug (high).
    echo pull-up > $sim/sim_gpio0/pull; echo pull-up > $sim/sim_gpio1/pull
    cat > $board_file <<BOARD
# The system rig's board: the real kernel drivers standing in for a HAT (written by scenarios.sh).
name: system-rig
description: System rig (WM8960 on i2c-stub, snd-aloop, gpio-sim)
codec:
  chip: wm8960
  bus: $bus
  address: 0x1a
  mclk: 12288000
  clock: mclk
  role: provider
  control: appliance
pcm:
  playback: hw:Loopback,0,0
  capture: hw:Loopback,0,0
gpio:
  chip: appliance-board
jack:
  source: gpio
  line: 1
  active: low
  bias: pull-up
  debounce-ms: 50
buttons:
  - name: play
    line: 0
    role: remote
    bias: pull-up
    hold-ms: 3000         # generous: a shell on the emulated CPU can stall a "short" press for a second
volume:
  max-db: 0
  default-db: -20
route:
  output: speaker
  input: line
BOARD
    pass daemon.board "board file written: codec on /dev/i2c-$bus, gpio-sim chip appliance-board ($(cat $cfg/bank0/chip_name)), hw:Loopback,0,0"
    mkdir -p /tmp/state/media
    cp /system/signal.wav /tmp/state/media/signal.wav
    # The host's driver connects to both virtio consoles; raw lines, no echo.
    for port in /dev/hvc0 /dev/hvc1; do
        [ -c $port ] || { fail daemon.console "no $port: the virtio console did not appear"; return; }
    done
    # 64 periods (640 ms): the emulated CPU, on a loaded host, stalls for longer than the default 40 ms
    # buffer; an xrun would drop frames from the recording that must come out bit-exact, and the kernel gives
    # up a read that waited 1.1 buffer times (EIO: pcm_lib.c wait_for_avail).
    APPLIANCE_LOCK=/tmp/appliance.lock $app run --board $board_file --state /tmp/state --console /dev/hvc0 --periods 64 \
        > /tmp/daemon.log 2>&1 &
    daemon_pid=$!
    echo "DAEMON-STARTED pid $daemon_pid"
    serve_host
    kill $daemon_pid 2>/dev/null
}

# Runs the host driver's commands from /dev/hvc1 in this shell (so `wait $daemon_pid` works), each answered by
# its output and `END <status>`; a `RESULT ...` line is logged as it is; `end` (or 300 s of silence) ends it.
serve_host() {
    exec 3<>/dev/hvc1
    stty raw -echo <&3   # set on the open line (the console driver sets its own modes at the first open)
    echo "HELLO" >&3
    while read -r -t 300 line <&3; do
        case $line in
        end) break ;;
        RESULT\ *\ FAIL\ *) echo "$line"; failures=$((failures + 1)) ;;
        RESULT\ *) echo "$line" ;;
        *) eval "$line" > /tmp/host.out 2>&1 < /dev/null; rc=$?; cat /tmp/host.out >&3; echo "END $rc" >&3 ;;
        esac
    done
    exec 3>&-
}

for scenario in $(echo "${SCENARIOS:-i2c,gpio,alsa,daemon}" | tr , ' '); do
    echo "SCENARIO $scenario"
    $scenario
done
echo "SCENARIOS-FINISHED failures=$failures"
