import HAL

/// Why a board gets no overlay, or why its overlay cannot be made: one line.
public struct BoardOverlayError: Error, Hashable, Sendable, CustomStringConvertible {
    public var board: String
    public var reason: String

    public init(board: String, reason: String) {
        self.board = board
        self.reason = reason
    }

    public var description: String { "board '\(board)' has no overlay: \(reason)" }
}

/// The device-tree overlay a board needs on a Raspberry Pi with Debian's own kernel and device trees, rendered
/// as DTS text from the board file: the one source of the clock role, the I2S frame and the card's PCM names.
///
/// What the overlay does, and why this way (Debian trixie's arm64 kernel 6.12, its config and modules):
/// - `&i2s` (bcm2835-i2s) on: status okay, GPIO 18-21 in ALT0 (`&pcm_gpio18`), `#sound-dai-cells = <0>` (the
///   upstream node has none, and simple-card parses `sound-dai` with `#sound-dai-cells`), and the DMA channels
///   of Debian's Pi 3 device tree (`<&dma 2>, <&dma 3>`, "tx", "rx": the DREQ numbers of PCM TX and RX). The
///   Pi 4 tree (bcm2711) has the node without `dmas`, and bcm2835-i2s registers a dmaengine PCM that needs them
///   (the BCM2711's DMA request map keeps PCM TX/RX at 2/3; not tried on a Pi 4 here: QEMU models no I2S).
/// - `&i2c1` on, with no child: the codec's address stays free for /dev/i2c-1, where the appliance's own
///   driver programs the codec (no kernel codec driver binds to it).
/// - An `i2c1` alias for that controller (`/soc/i2c@7e804000` in Debian's Pi 3, Pi 4 and Zero 2 W trees, which
///   have no i2c aliases): i2c_add_adapter numbers an adapter by its "i2c" alias and the rest dynamically from
///   0 (drivers/i2c/i2c-core-base.c), and the Pi 4's HDMI I2C controllers (built in) would otherwise take
///   /dev/i2c-0 and -1 first. With the alias, /dev/i2c-1 is the header's bus, as the board files say. A
///   literal path: dtc cannot make a path reference to the base tree's label from an overlay.
/// - A `simple-audio-card` named "appliance" (ALSA card id "appliance"), because no kernel driver knows
///   these HATs without their codec drivers. Its codecs are the two bus-less stub codecs Debian builds
///   (CONFIG_SND_SOC_SPDIF): `linux,spdif-dit` (playback only) and `linux,spdif-dir` (capture only); both take
///   S16_LE, S24_LE and S32_LE at 8-192 kHz (sound/soc/codecs/spdif_transmitter.c, spdif_receiver.c, their
///   STUB_FORMATS/STUB_RATES, read from the 6.12 modules), so the card is only as narrow as bcm2835-i2s.
///   simple-card's normal link has exactly one codec (sound/soc/generic/simple-card.c `simple_count_noml`:
///   `codecs = 1`; several codec nodes make DPCM only under "simple-scu-audio-card", and DPCM needs DAPM
///   widgets bcm2835-i2s does not have), audio-graph-card2 (multi-codec links) is not built, and the built
///   bus-less codecs that do both directions are narrow (their 6.12 dai tables: bt-sco S16_LE mono at 8/16 kHz,
///   gtm601 S16_LE at 8 kHz, its bm818 variant S16_LE at 48 kHz only), AK4554 being off. So playback is
///   link 0 (hw:CARD=appliance,DEV=0) and capture link 1 (DEV=1), both on the one I2S block; bcm2835-i2s is
///   `symmetric_rate` and `symmetric_sample_bits`, and sets the hardware once for whichever stream starts first.
/// - The frame pinned on the CPU side with `dai-tdm-slot-num`/`dai-tdm-slot-width` (simple-card.yaml), which
///   simple-card hands to bcm2835-i2s's set_tdm_slot: two slots of the board's width (32 bits unless the board
///   says otherwise). A fixed bit clock (a WM8731 in USB mode, BCLK = 12 MHz) is pinned at `rate` instead: a
///   frame of BCLK/rate bits, two slots of half that (125 bits at 48 kHz). That is what the Audio Injector's
///   machine driver does with snd_soc_dai_set_bclk_ratio(250) at 48 kHz (bcm2835-i2s's set_bclk_ratio makes
///   the same two slots of ratio/2): in I2S mode the second channel starts one slot in, so the slot must be
///   half the codec's frame. simple-card has no per-rate ratio, so that board's overlay is right at `rate` only.
/// - The clock provider from `codec.role`: `bitclock-master`/`frame-master` point at the codec sub-node when
///   the codec makes BCLK/LRCLK, at the CPU sub-node when the Pi does (simple-card-utils compares the phandle
///   with the codec node).
public struct BoardOverlay: Sendable {
    public var board: BoardConfig
    /// The rate the frame of a fixed bit clock is pinned at (the appliance runs at 48 kHz).
    public var rate: Int

    /// `simple-audio-card,name`; ALSA makes the card id from it (alphanumerics of its last word, at most 15).
    public static let cardName = "appliance"
    /// The PCM each direction is on: link 0 plays, link 1 records.
    public static let playbackPCM = "hw:CARD=\(cardName),DEV=0"
    public static let capturePCM = "hw:CARD=\(cardName),DEV=1"
    public static let defaultRate = 48_000
    /// The header's I2C controller (BSC1) in Debian's Pi 3, Pi 4 and Zero 2 W device trees.
    public static let i2c1Path = "/soc/i2c@7e804000"

    /// Builds the overlay, or says why the board has none.
    public init(board: BoardConfig, rate: Int = BoardOverlay.defaultRate) throws(BoardOverlayError) {
        self.board = board
        self.rate = rate
        if let reason = Self.problem(board: board, rate: rate) { throw BoardOverlayError(board: board.name, reason: reason) }
    }

    /// The overlay's name: `dtoverlay=appliance-NAME` in config.txt, appliance-NAME.dtbo in overlays/.
    public var name: String { Self.overlayName(board.name) }

    public static let overlayPrefix = "appliance-"

    public static func overlayName(_ board: String) -> String { overlayPrefix + board }

    /// Whether the overlay has a capture link.
    public var hasCapture: Bool { board.pcm.capture != nil }

    /// Two slots and their width in bits, the frame the CPU side is pinned to.
    public var slots: (count: Int, width: Int) {
        switch board.i2s {
        case .slots(let count, let width): (count, width)
        case .fixedBitClock: (2, (board.i2s.bitsPerFrame(rate: rate) ?? 0) / 2)
        }
    }

    /// Nil when the board gets an overlay, else why not.
    static func problem(board: BoardConfig, rate: Int) -> String? {
        if board.name == SimulatedBoard.name || board.pcm.playback == BoardPCMs.simulatedName {
            return "it is simulated (no hardware)"
        }
        if board.codec.control != .appliance {
            return "its codec is driven by the kernel (codec.control: \(board.codec.control)); use that driver's overlay"
        }
        if board.codec.bus != 1 {
            return "the overlay enables I2C1 (the HAT header's bus); codec.bus is \(board.codec.bus)"
        }
        if let problem = board.i2s.problem(rate: rate, wordLength: 32) { return problem }
        switch board.i2s {
        case .slots(let count, _) where count != 2:
            return "bcm2835-i2s carries two channels; i2s.slots is \(count)"
        case .fixedBitClock:
            guard let bits = board.i2s.bitsPerFrame(rate: rate), bits % 2 == 0 else {
                return "a fixed bit clock of \(board.i2s) makes no even frame at \(rate) Hz"
            }
        default: break
        }
        if board.pcm.playback.hasPrefix("hw:"), board.pcm.playback != playbackPCM {
            return "pcm.playback is \(board.pcm.playback); the overlay's card plays on \(playbackPCM)"
        }
        if let capture = board.pcm.capture, capture.hasPrefix("hw:"), capture != capturePCM {
            return "pcm.capture is \(capture); the overlay's card records on \(capturePCM)"
        }
        return nil
    }

    /// The overlay source for dtc.
    public var source: String {
        let (count, width) = slots
        let provider = board.codec.role == .provider
        var lines = [
            "// \(name).dts: generated by `appliance board overlay \(board.name)` from the board file; do not edit.",
            "// \(board.description)",
            "// I2S (bcm2835-i2s) with a simple-audio-card \"\(Self.cardName)\": playback \(Self.playbackPCM)"
                + (hasCapture ? ", capture \(Self.capturePCM)" : " (no capture: a DAC)") + ";",
            "// \(count) x \(width)-bit slots; \(provider ? "the codec" : "the Pi") makes BCLK and LRCLK; I2C1 on, with "
                + "0x\(String(board.codec.address, radix: 16)) (\(board.codec.chip)) left to /dev/i2c-1.",
            "// Why each property is what it is: Sources/Board/Overlay/BoardOverlay.swift.",
            "/dts-v1/;",
            "/plugin/;",
            "",
            "/ {",
            "\tcompatible = \"brcm,bcm2835\";",
            "",
            "\tfragment@0 {",
            "\t\ttarget = <&i2s>;",
            "\t\t__overlay__ {",
            "\t\t\t#sound-dai-cells = <0>;",
            "\t\t\tpinctrl-names = \"default\";",
            "\t\t\tpinctrl-0 = <&pcm_gpio18>;",
            "\t\t\tdmas = <&dma 2>, <&dma 3>;",
            "\t\t\tdma-names = \"tx\", \"rx\";",
            "\t\t\tstatus = \"okay\";",
            "\t\t};",
            "\t};",
            "",
            "\tfragment@1 {",
            "\t\ttarget = <&i2c1>;",
            "\t\t__overlay__ {",
            "\t\t\tstatus = \"okay\";",
            "\t\t};",
            "\t};",
            "",
            "\tfragment@2 {",
            "\t\ttarget-path = \"/aliases\";",
            "\t\t__overlay__ {",
            "\t\t\ti2c1 = \"\(Self.i2c1Path)\";",
            "\t\t};",
            "\t};",
            "",
            "\tfragment@3 {",
            "\t\ttarget-path = \"/\";",
            "\t\t__overlay__ {",
            "\t\t\tappliance_dit: appliance-spdif-dit {",
            "\t\t\t\tcompatible = \"linux,spdif-dit\";",
            "\t\t\t\t#sound-dai-cells = <0>;",
            "\t\t\t};",
        ]
        if hasCapture {
            lines += [
                "",
                "\t\t\tappliance_dir: appliance-spdif-dir {",
                "\t\t\t\tcompatible = \"linux,spdif-dir\";",
                "\t\t\t\t#sound-dai-cells = <0>;",
                "\t\t\t};",
            ]
        }
        lines += [
            "",
            "\t\t\tappliance-sound {",
            "\t\t\t\tcompatible = \"simple-audio-card\";",
            "\t\t\t\tsimple-audio-card,name = \"\(Self.cardName)\";",
            "\t\t\t\t#address-cells = <1>;",
            "\t\t\t\t#size-cells = <0>;",
        ]
        // Written last to first: an overlay's new sibling nodes land in the merged tree in reverse order (libfdt's
        // fdt_add_subnode puts a node before its existing siblings, and both fdt_overlay_apply and the Pi
        // firmware's dtoverlay_merge_fragment add the overlay's nodes first to last), and simple-card numbers the
        // PCM devices in the merged tree's order: link 0 must come first there.
        if hasCapture {
            lines += link(1, "capture", codec: "appliance_dir", count: count, width: width, provider: provider)
        }
        lines += link(0, "playback", codec: "appliance_dit", count: count, width: width, provider: provider)
        lines += ["\t\t\t};", "\t\t};", "\t};", "};"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// One dai-link: the I2S block pinned to the frame, one stub codec, the clock provider by phandle.
    func link(_ index: Int, _ direction: String, codec: String, count: Int, width: Int, provider: Bool) -> [String] {
        let cpuLabel = "appliance_\(direction)_cpu", codecLabel = "appliance_\(direction)_codec"
        let master = provider ? codecLabel : cpuLabel
        return [
            "",
            "\t\t\t\tsimple-audio-card,dai-link@\(index) {",
            "\t\t\t\t\treg = <\(index)>;",
            "\t\t\t\t\tformat = \"i2s\";",
            "\t\t\t\t\tbitclock-master = <&\(master)>;",
            "\t\t\t\t\tframe-master = <&\(master)>;",
            "",
            "\t\t\t\t\t\(cpuLabel): cpu {",
            "\t\t\t\t\t\tsound-dai = <&i2s>;",
            "\t\t\t\t\t\tdai-tdm-slot-num = <\(count)>;",
            "\t\t\t\t\t\tdai-tdm-slot-width = <\(width)>;",
            "\t\t\t\t\t};",
            "",
            "\t\t\t\t\t\(codecLabel): codec {",
            "\t\t\t\t\t\tsound-dai = <&\(codec)>;",
            "\t\t\t\t\t};",
            "\t\t\t\t};",
        ]
    }
}
