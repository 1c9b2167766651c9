/// A last-writer-wins register: a value and the stamp of the change that set it. Merging keeps the later stamp's
/// (on equal stamps, which only a damaged or forged log holds, the value that sorts last), so merging is
/// commutative, associative and idempotent.
struct JournalRegister<Value: JournalRegisterValue>: Hashable, Sendable {
    var stamp: JournalStamp
    var value: Value

    func wins(over other: JournalRegister) -> Bool {
        stamp != other.stamp ? stamp > other.stamp : other.value.sortsBefore(value)
    }

    mutating func merge(_ other: JournalRegister) {
        if other.wins(over: self) { self = other }
    }
}

/// A value a register holds: ordered among values of one stamp only to settle ties the same way everywhere.
protocol JournalRegisterValue: Hashable, Sendable {
    func sortsBefore(_ other: Self) -> Bool
}

extension Optional: JournalRegisterValue where Wrapped: JournalRegisterValue {
    func sortsBefore(_ other: Wrapped?) -> Bool {
        switch (self, other) {
        case (nil, nil): false
        case (nil, _): true
        case (_, nil): false
        case (let left?, let right?): left.sortsBefore(right)
        }
    }
}

extension RawJSON: JournalRegisterValue {
    func sortsBefore(_ other: RawJSON) -> Bool { bytes.lexicographicallyPrecedes(other.bytes) }
}

extension JournalChange.ImagePlacement: JournalRegisterValue {
    func sortsBefore(_ other: Self) -> Bool { (gallery, key) < (other.gallery, other.key) }
}

extension String: JournalRegisterValue {
    func sortsBefore(_ other: String) -> Bool { self < other }
}

extension Bool: JournalRegisterValue {
    func sortsBefore(_ other: Bool) -> Bool { !self && other }
}

extension GalleryImage: JournalRegisterValue {
    func sortsBefore(_ other: GalleryImage) -> Bool {
        JournalFields.imageText(self).lexicographicallyPrecedes(JournalFields.imageText(other))
    }
}
