#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import TallyCore

/// Who an expense is recorded as spent by when no `--by` names anyone: `$TALLY_USER`, else
/// the login name. `TALLY_USER` set but empty records no one.
///
/// The login name comes from `LOGNAME` or `USER` (what login and sshd set): two `getenv`s, no
/// system call. Only when neither is set is the password database asked (`getpwuid_r`, which
/// opens `nsswitch.conf` and `/etc/passwd`); `getlogin` would read utmp and `/proc` every time.
enum Spender {
    static func current(environment: (String) -> String? = CommonOptions.processEnvironment) throws(ValidationError) -> String {
        if let chosen = environment("TALLY_USER") {
            do {
                return try Expense.validatedBy(chosen)
            } catch {
                throw ValidationError("invalid TALLY_USER: \(error.message)")
            }
        }
        // A login name Tally cannot keep records no one rather than failing every command.
        for name in ["LOGNAME", "USER"] {
            if let login = environment(name), !login.isEmpty { return (try? Expense.validatedBy(login)) ?? "" }
        }
        return (try? Expense.validatedBy(passwordEntryName() ?? "")) ?? ""
    }

    /// The name of the real user id's entry in the password database.
    private static func passwordEntryName() -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4_096)
        guard getpwuid_r(getuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else {
            return nil
        }
        return String(cString: name)
    }
}
