import CGtk

public enum AccessibleRole {
    case image
    var atk: AtkRole {
        switch self {
        case .image: ATK_ROLE_IMAGE
        }
    }
}
