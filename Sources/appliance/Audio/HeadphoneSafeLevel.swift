/// The level headphones start at when plugged in, at most: a remembered headphone volume above it is brought
/// down to it on insertion (the user may turn up again; nothing turns up by itself).
///
/// Why -22 dB: EN IEC 62368-1 (clause 10.6, from EN 50332-1/-2) limits a personal player's default output to
/// 85 dB(A), measured electrically as at most 27 mV r.m.s. at the headphone jack while it plays the programme
/// simulation noise recorded at -10 dBFS (the standard's test signal). The WM8960's headphone output swings
/// about 1.0 V r.m.s. at full scale and 0 dB gain with a 3.3 V supply (datasheet, "Analogue outputs:
/// headphone, full-scale output"), so the level that keeps 27 mV is 20·log10(0.027 / 1.0) + 10 = -21.4 dB:
/// -22 dB, the whole dB at or under it. WHO-ITU H.870 ("safe listening devices", 2022) builds on the same
/// 80-85 dB(A) figures. A board whose jack swings differently sets its own value in the settings
/// (`headphoneCapDB`).
enum HeadphoneSafeLevel {
    static let defaultDB = -22.0
}
