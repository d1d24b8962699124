import FoundationEssentials
import SecureFiles

/// The setup record at work: a setup notes what it changes, and an undo puts back what the record says. While the
/// file holds what setup last wrote, the undo of its last setup writes its old bytes back (or removes it, and the
/// directory made for it); with other profiles' setups still in it, the undo removes only this one's entry, keeping
/// one that another profile set up too; once someone else edited the file, only setup's own entries are removed.
extension ToolSetup {
    /// Every setup recorded, oldest first.
    static func recordedSetups(application: Application) throws(SetupError) -> [SetupClaim] {
        try SetupRecord.load(from: application.dataDirectory).claims
    }

    /// `plan` with its claim on the tool's file, for `apply` to record.
    func recorded(_ plan: SetupPlan, _ request: SetupRequest) throws(SetupError) -> SetupPlan {
        let file = try ToolFile.read(plan.target)
        var plan = plan
        plan.recording = .claim(
            SetupClaim(profile: site.profile, request: request), file: file,
            createdDirectories: file.contents == nil ? ToolFile.missingDirectory(of: file.resolvedPath) : [],
            replaced: plan.replaced)
        return plan
    }

    func undoPlan(_ request: SetupRequest, profile: ResolvedProfile) throws(SetupError) -> SetupPlan {
        let claim = SetupClaim(profile: site.profile, request: request)
        let record = try SetupRecord.load(from: application.dataDirectory)
        guard let index = record.entry(holding: claim) else {
            return try toolPlan(request, profile: profile, undo: true)
        }
        let entry = record.files[index]
        let file = try ToolFile.read(entry.path)
        let others = entry.claims.filter { $0 != claim }
        // Only setup's own entries, putting back what it replaced.
        let own = try toolPlan(
            request, profile: profile, undo: true, restoring: entry.replaced.first { $0.claim == claim }?.values,
            others: others)
        let edited = entry.editedSince || !entry.holdsWritten(file.contents)
        // Opened by the bytes setup wrote; nil: the file did not exist.
        let original = edited ? nil : entry.original.map { $0.open(with: file.contents) }
        var plan: SetupPlan
        if edited || original == .some(nil) {
            plan = own
            plan.notes = [
                "the file was changed since setup: only setup's own entries are removed, the rest is left as it is"
            ]
        } else if others.isEmpty {
            let edit: SetupEdit =
                original.flatMap { $0 }.map { .file(path: entry.path, contents: $0, mode: entry.originalMode) }
                ?? .remove(path: entry.path, directories: entry.createdDirectories)
            // The whole file, not each key: what setup replaced comes back with it.
            let change =
                entry.original == nil ? "remove the file: setup created it" : "put back the file as it was before setup"
            plan = SetupPlan(
                tool: own.tool, target: own.target, changes: [change], helperHost: own.helperHost, edit: edit)
        } else if let sharing = others.last(where: { $0.sameEntry(as: claim) }), request.tool == .git {
            // git's own undo leaves the host's entry to the profiles still set up for it.
            plan = own
            plan.notes = [
                own.changes.isEmpty
                    ? "the entry stays: profile '\(sharing.profile)' set it up too"
                    : "profile '\(sharing.profile)' set it up too: the entry is left to the profiles still set up"
            ]
        } else if let sharing = others.last(where: { $0.sameEntry(as: claim) }) {
            // Another profile set up the same entry: it stays that profile's.
            let theirs = try ToolSetup(application: application, site: site.forProfile(sharing.profile))
                .toolPlan(request, profile: profile, undo: false)
            plan = SetupPlan(
                tool: own.tool, target: own.target, changes: theirs.changes, helperHost: own.helperHost,
                edit: theirs.edit)
            plan.notes = [
                theirs.changesNothing
                    ? "the entry stays: profile '\(sharing.profile)' set it up too"
                    : "profile '\(sharing.profile)' set it up too: its entry comes back"
            ]
        } else {
            plan = own
        }
        plan.recording = .release(claim, path: entry.path, contents: file.contents)
        return plan
    }

    /// Notes `claim` before its file is written. A file no record holds is noted only when this setup changes it:
    /// one already set up (by a version without the record) has no earlier state to go back to.
    func record(
        _ claim: SetupClaim, file: ToolFile, createdDirectories: [String], replaced: [String]?,
        writing edit: SetupEdit
    ) throws(SetupError) {
        var record = try SetupRecord.load(from: application.dataDirectory)
        let contents: [UInt8]
        switch edit {
        case .file(_, let written, _): contents = written
        case .none: contents = file.contents ?? []
        case .commands, .remove: return
        }
        do {
            if let index = record.entry(for: file.resolvedPath) {
                var entry = record.files[index]
                // Edited by someone else since: its old bytes would now undo their edit too.
                if !entry.holdsWritten(file.contents) { entry.editedSince = true }
                if !entry.claims.contains(claim) {
                    entry.claims.append(claim)
                    if let replaced { entry.replaced.append(ReplacedValues(claim: claim, values: replaced)) }
                }
                try entry.wrote(contents, over: file.contents)
                record.files[index] = entry
            } else {
                guard case .file = edit else { return }
                record.files.append(
                    RecordedFile(
                        path: file.resolvedPath,
                        original: try file.contents.map { try SealedOriginal($0, openedBy: contents) },
                        originalMode: file.mode, createdDirectories: createdDirectories,
                        written: RecordedFile.digest(contents), editedSince: false, claims: [claim],
                        replaced: replaced.map { [ReplacedValues(claim: claim, values: $0)] } ?? []))
            }
        } catch {
            throw .file(path: SetupRecord.path(in: application.dataDirectory), reason: "\(error)")
        }
        try record.save(in: application.dataDirectory)
    }

    /// Drops `claim` once its undo is written over `previous` (the file as the undo read it), and the file's entry
    /// with its last claim.
    func release(_ claim: SetupClaim, path: String, previous: [UInt8]?, after edit: SetupEdit) throws(SetupError) {
        var record = try SetupRecord.load(from: application.dataDirectory)
        guard let index = record.entry(for: path) else { return }
        record.files[index].claims.removeAll { $0 == claim }
        record.files[index].replaced.removeAll { $0.claim == claim }
        if record.files[index].claims.isEmpty {
            record.files.remove(at: index)
        } else if case .file(_, let written, _) = edit {
            do { try record.files[index].wrote(written, over: previous) } catch {
                throw .file(path: SetupRecord.path(in: application.dataDirectory), reason: "\(error)")
            }
        }
        try record.save(in: application.dataDirectory)
    }
}
