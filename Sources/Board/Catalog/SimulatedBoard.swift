/// The board that needs no hardware, built into the firmware so `appliance` runs anywhere without files.
/// (Not a bundle resource: resource bundles crash the ARM toolchain's static binary.) The text is
/// board-configs/simulated.yaml verbatim; a test keeps the two identical.
public enum SimulatedBoard {
    public static let name = "simulated"
    /// The label of the simulated GPIO chip; a board file naming it (`gpio: chip: simulated`) runs on twins.
    public static let gpioChipLabel = "simulated"

    /// The validated board. The text is checked by the tests, so parsing cannot fail at run time.
    public static let config: BoardConfig = {
        do {
            return try BoardConfig.parse(yaml, file: "(built-in simulated board)")
        } catch {
            fatalError("the built-in simulated board does not validate: \(error)")
        }
    }()

    /// board-configs/simulated.yaml.
    public static let yaml = #"""
# The simulated board: no hardware at all. A simulated WM8960 on a simulated I2C bus, simulated PCMs and a
# simulated GPIO chip, so the whole appliance runs (and is tested) on a laptop or in CI. Every kind of
# input and output a real board can have is here, so the simulation exercises them all.
# This file is also built into the firmware (Sources/Board/Catalog/SimulatedBoard.swift); a test keeps
# the two identical.
name: simulated
description: Simulated board (WM8960, jack, buttons, encoder, amplifier, LEDs; no hardware)
codec:
  chip: wm8960
  bus: 1
  address: 0x1a          # the WM8960's only address
  mclk: 12288000         # 12.288 MHz, as on the Waveshare WM8960 HAT
  clock: mclk            # an oscillator module drives the MCLK pin
  role: provider
  control: appliance
pcm:
  playback: simulated
  capture: simulated
gpio:
  chip: simulated        # the label of HAL's SimulatedGPIO chip
jack:
  source: gpio
  line: 4
  active: low
  debounce-ms: 50
microphone:
  source: gpio
  line: 5
  active: low
buttons:
  - name: play          # the headset-style remote: click play/pause, double next, triple previous, hold seek
    line: 17
    role: remote
    multi-click-ms: 300  # the gesture timings (these are the defaults: Android's)
    hold-ms: 400
    repeat-ms: 50
  - name: volume-up
    line: 23
    role: volume-up
  - name: volume-down
    line: 24
    role: volume-down
  - name: record
    line: 25
    role: record
  - name: shift          # held, it gives the others a second function (see shift below)
    line: 16
    role: custom
hold: seek               # holding the remote seeks (a recorder board says record)
shift: shift             # shift + play click: a marker in the recording
encoders:
  - name: volume
    line-a: 6
    line-b: 13
    role: volume         # one volume step per detent, clockwise louder
amplifier:
  line: 22
  control: enable
  active: high
leds:
  - name: status
    kind: gpio
    line: 26
    active: high
  - name: ring
    kind: apa102
    spi-bus: 0
    chip-select: 1
    count: 3
volume:
  max-db: 0
  default-db: -20
route:
  output: speaker
  input: microphone

"""#
}
