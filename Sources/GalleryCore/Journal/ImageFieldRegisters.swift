/// An image's fields set after its arrival, each a register, by name: most images have none or one (a likeness
/// measured after it arrived), so they are kept in an array in the order of their names, not in a dictionary of their
/// own, which costs a storage object an image and a hash at every look-up.
struct ImageFieldRegisters: Hashable, Sendable, Sequence {
    private var registers: [(name: String, register: JournalRegister<RawJSON?>)] = []

    init() {}

    var isEmpty: Bool { registers.isEmpty }

    subscript(name: String) -> JournalRegister<RawJSON?>? {
        get { registers.first { $0.name == name }?.register }
        set {
            let index = registers.firstIndex { $0.name >= name } ?? registers.endIndex
            let isThere = index < registers.endIndex && registers[index].name == name
            switch (newValue, isThere) {
            case (let register?, true): registers[index].register = register
            case (let register?, false): registers.insert((name, register), at: index)
            case (nil, true): registers.remove(at: index)
            case (nil, false): break
            }
        }
    }

    /// Drops the registers `isDropped` names.
    mutating func removeAll(where isDropped: (JournalRegister<RawJSON?>) -> Bool) {
        registers.removeAll { isDropped($0.register) }
    }

    /// The registers in the order of their names.
    func makeIterator() -> some IteratorProtocol<(name: String, register: JournalRegister<RawJSON?>)> {
        registers.makeIterator()
    }

    static func == (left: Self, right: Self) -> Bool {
        left.registers.elementsEqual(right.registers) { $0.name == $1.name && $0.register == $1.register }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(registers.count)
        for (name, register) in registers {
            hasher.combine(name)
            hasher.combine(register)
        }
    }
}
