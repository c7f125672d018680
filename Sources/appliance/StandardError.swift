import HAL

/// Writes `text` to standard error.
func writeToStandardError(_ text: String) {
    StandardStream.error.write(text)
}
