#!/usr/bin/env bash
# Checks the overlays against Debian's own Raspberry Pi device trees: each appliance-<board>.dtbo is applied with
# fdtoverlay onto each Pi device tree Debian ships with the 40-pin header (Pi 3 B, 3 B+, 3 A+, Zero 2 W, 4 B, 400,
# CM4 IO; from the linux-image package the system rig unpacked), and the merged tree is read back with fdtget.
# What each value must be comes from the board file (role, address, capture, bit clock) and the kernel's bindings and drivers, cited below,
# not from the generator. Also checks that the Pi 5's tree (bcm2712) refuses the overlay: Debian's 6.12 has no
# I2S node for it, which the README says.
#
# Usage: image/overlays/check.sh [DTBO_DIR]   (default: build them into .build-overlays/ first)
# Environment: XDG_CACHE_HOME moves the rig's cache (`make test-system` fills it).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
die() { printf 'overlays check: error: %s\n' "$*" >&2; exit 1; }
say() { printf '\033[1moverlays check:\033[0m %s\n' "$*" >&2; }

for tool in fdtoverlay fdtget dtc; do
    command -v "$tool" >/dev/null || die "$tool not found: install Debian's device-tree-compiler (image/host-deps.sh overlays)"
done
shopt -s nullglob
dtbs=("${XDG_CACHE_HOME:-$HOME/.cache}"/appliance/system/kernel/usr/lib/linux-image-*/broadcom)
[[ ${#dtbs[@]} -ge 1 ]] || die "Debian's Pi device trees are not cached (linux-image .../broadcom): run 'make test-system' once to fetch them"
dtbs=${dtbs[-1]}

dir=${1:-}
if [[ -z $dir ]]; then
    dir=$repo/.build-overlays
    "$here/build.sh" "$dir"
fi
overlays=("$dir"/appliance-*.dtbo)
[[ ${#overlays[@]} -gt 0 ]] || die "no appliance-*.dtbo in $dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The rate a fixed bit clock's frame is pinned at: the appliance's (ApplianceAssembly.rate), the one the Audio
# Injector's machine driver sets bclk_ratio 250 for (audioinjector-pi-soundcard.c: 48000 -> 250).
readonly RATE=48000
failures=0
fail() { printf 'overlays check: FAIL %s\n' "$*" >&2; failures=$((failures + 1)); }
expect() {  # expect WHAT ACTUAL EXPECTED
    [[ $2 == "$3" ]] || fail "$1: '$2', expected '$3'"
}
# A board file's value under a block: field FILE BLOCK KEY (the board files are plain two-level YAML).
field() {
    awk -v block="$2:" -v key="$3:" '
        /^[^ #]/ { inblock = ($1 == block) }
        inblock && $1 == key { print $2; exit }' "$1"
}
phandle_of() { fdtget -t u "$1" "$2" phandle; }
# The top-level node of tree $1 whose phandle is $2 (the stub codecs sit at the root).
node_with_phandle() {
    local n
    for n in $(fdtget -l "$1" /); do
        if [[ $(fdtget -t u "$1" "/$n" phandle 2>/dev/null) == "$2" ]]; then echo "/$n"; return 0; fi
    done
}

checked=0
for dtbo in "${overlays[@]}"; do
    name=$(basename "$dtbo" .dtbo)
    board=${name#appliance-}
    file=$repo/board-configs/$board.yaml
    [[ -f $file ]] || { fail "$name: no board file $file"; continue; }
    role=$(field "$file" codec role)
    address=$(( $(field "$file" codec address) ))
    capture=$(field "$file" pcm capture)
    bitclock=$(field "$file" i2s bit-clock)
    # simple-card.yaml: dai-tdm-slot-num/width on the CPU node; two 32-bit slots (the HAL's I2SFrame.standard)
    # unless the board's codec makes a fixed bit clock, whose frame is BCLK/rate bits in two halves
    # (bcm2835-i2s.c set_bclk_ratio: slot_width = ratio / 2).
    width=32
    [[ -n $bitclock ]] && width=$(( bitclock / RATE / 2 ))

    # Every Pi with a 40-pin header whose device tree Debian ships (Pi 3 B, 3 B+, 3 A+, Zero 2 W, Pi 4 B, 400, CM4 IO).
    for base in bcm2837-rpi-3-b bcm2837-rpi-3-b-plus bcm2837-rpi-3-a-plus bcm2837-rpi-zero-2-w bcm2711-rpi-4-b \
                bcm2711-rpi-400 bcm2711-rpi-cm4-io; do
        what="$name on $base"
        merged=$work/$base-$board.dtb
        if ! fdtoverlay -i "$dtbs/$base.dtb" -o "$merged" "$dtbo" 2>"$work/err"; then
            fail "$what: fdtoverlay: $(head -1 "$work/err")"
            continue
        fi
        i2s=$(fdtget "$dtbs/$base.dtb" /__symbols__ i2s)
        i2c1=$(fdtget "$dtbs/$base.dtb" /__symbols__ i2c1)
        pcm_pins=$(fdtget "$dtbs/$base.dtb" /__symbols__ pcm_gpio18)
        dma=$(fdtget "$dtbs/$base.dtb" /__symbols__ dma)
        # The I2S block on, on GPIO 18-21, with the #sound-dai-cells simple-card parses sound-dai with and the
        # DMA requests bcm2835-i2s's dmaengine PCM needs (DREQ 2 PCM TX, 3 PCM RX: BCM2835 ARM Peripherals 4.2.1.3,
        # as Debian's Pi 3 tree has them).
        expect "$what: i2s status" "$(fdtget "$merged" "$i2s" status)" okay
        expect "$what: i2s #sound-dai-cells" "$(fdtget "$merged" "$i2s" '#sound-dai-cells')" 0
        expect "$what: i2s pinctrl-0" "$(fdtget -t u "$merged" "$i2s" pinctrl-0)" "$(phandle_of "$merged" "$pcm_pins")"
        expect "$what: pcm_gpio18 pins" "$(fdtget "$merged" "$pcm_pins" brcm,pins)" "18 19 20 21"
        d=$(phandle_of "$merged" "$dma")
        expect "$what: i2s dmas" "$(fdtget -t u "$merged" "$i2s" dmas)" "$d 2 $d 3"
        expect "$what: i2s dma-names" "$(fdtget "$merged" "$i2s" dma-names)" "tx rx"
        expect "$what: i2c1 status" "$(fdtget "$merged" "$i2c1" status)" okay
        # /dev/i2c-1 is the header's bus only if the controller has the alias i2c1 (i2c-core-base.c
        # i2c_add_adapter: of_alias_get_id(.., "i2c"); without one the Pi 4's HDMI I2C takes the low numbers).
        expect "$what: alias i2c1" "$(fdtget "$merged" /aliases i2c1)" "$i2c1"
        # The codec's address stays free for /dev/i2c-1: no child of i2c1 with that reg.
        for child in $(fdtget -l "$merged" "$i2c1"); do
            reg=$(fdtget -t u "$merged" "$i2c1/$child" reg 2>/dev/null || true)
            if [[ $reg == "$address" ]]; then fail "$what: $i2c1/$child claims the codec's address $address"; fi
        done
        sound=/appliance-sound
        expect "$what: sound compatible" "$(fdtget "$merged" $sound compatible)" simple-audio-card
        # ALSA's card id: the alphanumerics of the card name's last word (sound/core/init.c), what pcm: names use.
        expect "$what: card name" "$(fdtget "$merged" $sound simple-audio-card,name)" appliance
        links=("simple-audio-card,dai-link@0:linux,spdif-dit")
        [[ -n $capture ]] && links+=("simple-audio-card,dai-link@1:linux,spdif-dir")
        expect "$what: dai-links" "$(fdtget -l "$merged" $sound | tr '\n' ' ')" \
            "$(for l in "${links[@]}"; do printf '%s ' "${l%%:*}"; done)"
        for entry in "${links[@]}"; do
            link=$sound/${entry%%:*}
            cpu=$link/cpu
            codec=$link/codec
            expect "$what: $link format" "$(fdtget "$merged" "$link" format)" i2s
            expect "$what: $cpu sound-dai" "$(fdtget -t u "$merged" "$cpu" sound-dai)" "$(phandle_of "$merged" "$i2s")"
            expect "$what: $cpu dai-tdm-slot-num" "$(fdtget "$merged" "$cpu" dai-tdm-slot-num)" 2
            expect "$what: $cpu dai-tdm-slot-width" "$(fdtget "$merged" "$cpu" dai-tdm-slot-width)" "$width"
            target=$(fdtget -t u "$merged" "$codec" sound-dai)
            node=$(node_with_phandle "$merged" "$target")
            expect "$what: $codec codec" "$(fdtget "$merged" "${node:-/}" compatible 2>/dev/null)" "${entry#*:}"
            # simple-card-utils: bitclock-master/frame-master name the sub-node that provides the clocks;
            # role provider means the codec makes BCLK and LRCLK (board file), consumer means the Pi does.
            provider=$cpu
            [[ $role == provider ]] && provider=$codec
            expect "$what: $link bitclock-master" "$(fdtget -t u "$merged" "$link" bitclock-master)" \
                "$(phandle_of "$merged" "$provider")"
            expect "$what: $link frame-master" "$(fdtget -t u "$merged" "$link" frame-master)" \
                "$(phandle_of "$merged" "$provider")"
        done
        checked=$((checked + 1))
    done
    # Debian's 6.12 has no I2S for the Pi 5 (bcm2712-rpi-5-b.dtb has no i2s symbol): the overlay must not apply.
    if fdtoverlay -i "$dtbs/bcm2712-rpi-5-b.dtb" -o "$work/pi5.dtb" "$dtbo" 2>/dev/null; then
        fail "$name applies to bcm2712-rpi-5-b.dtb, which has no i2s node in Debian's kernel: update the README"
    fi
done
[[ $failures -eq 0 ]] || die "$failures checks failed over ${#overlays[@]} overlays"
say "ok: ${#overlays[@]} overlays x 7 Pi device trees ($checked merged trees checked; the Pi 5 tree refuses each)"
