import Foundation
import TallyCore
import TallyTestSupport
import Testing

/// Makes a fresh, empty store of the kind under test that reads `clock` for its timestamps.
public typealias StoreFactory = (_ clock: @escaping @Sendable () -> Date) throws -> any DataAccess

/// What every `DataAccess` must do, as data: Swift Testing finds `@Test` only in test targets,
/// so each store's test target runs every check with one parameterized test:
///
/// ```swift
/// @Test(arguments: StoreContract.checks) func contract(_ check: StoreContract.Check) throws { try check.run(makeStore) }
/// ```
///
/// A check records its failures with `#expect` and `Issue.record` like a test; it depends on
/// no concrete store, only on the factory it is handed.
public enum StoreContract {
    /// One rule of the contract, proved on stores made by the factory it runs with.
    public struct Check: Sendable, CustomTestStringConvertible {
        public let name: String
        let body: @Sendable (Stores) throws -> Void

        init(_ name: String, _ body: @escaping @Sendable (Stores) throws -> Void) {
            self.name = name
            self.body = body
        }

        public var testDescription: String { name }

        public func run(_ makeStore: @escaping StoreFactory) throws {
            try body(Stores(factory: makeStore))
        }
    }

    /// What a check gets to make its stores with: as many fresh ones as it needs.
    public struct Stores {
        let factory: StoreFactory

        /// A fresh, empty store reading `clock`.
        public func make(clock: TestClock = TestClock()) throws -> any DataAccess {
            try factory { clock() }
        }
    }

    /// Every check, in the order the contract reads.
    public static let checks: [Check] = [
        Check("budgetsAreAddedFoundListedAndUpdated", budgetsAreAddedFoundListedAndUpdated),
        Check("splitExpensesAndRefundsCountEachLineOnce", splitExpensesAndRefundsCountEachLineOnce),
        Check("splitsAndRefundsRoundTripAndUndo", splitsAndRefundsRoundTripAndUndo),
        Check("onceBudgetsAndAccountsCountSplitsAndRefundsByTheRule", onceBudgetsAndAccountsCountSplitsAndRefundsByTheRule),
        Check("largestExpensesAreWholeReceiptsInEachBudgetOfTheirLines", largestExpensesAreWholeReceiptsInEachBudgetOfTheirLines),
        Check("budgetsAreOrderedByNameKeyBytesThenID", budgetsAreOrderedByNameKeyBytesThenID),
        Check("budgetTargetsRoundTripAndUndo", budgetTargetsRoundTripAndUndo),
        Check("brokenBudgetRulesAreRefusedAndChangeNothing", brokenBudgetRulesAreRefusedAndChangeNothing),
        Check("namesMadeOfManyScalarsFitTheirCharacterLimit", namesMadeOfManyScalarsFitTheirCharacterLimit),
        Check("namesClashIgnoringCaseAndDiacriticsOnly", namesClashIgnoringCaseAndDiacriticsOnly),
        Check("aNewBudgetsOwnIDIsIgnored", aNewBudgetsOwnIDIsIgnored),
        Check("renamingOntoAnotherBudgetIsRefusedButOwnCaseIsNot", renamingOntoAnotherBudgetIsRefusedButOwnCaseIsNot),
        Check("removingABudgetCascadesOnlyWhenAsked", removingABudgetCascadesOnlyWhenAsked),
        Check("expensesAreAddedReadUpdatedAndRemoved", expensesAreAddedReadUpdatedAndRemoved),
        Check("brokenExpenseRulesAreRefusedAndChangeNothing", brokenExpenseRulesAreRefusedAndChangeNothing),
        Check("missingRecordsAreReportedByName", missingRecordsAreReportedByName),
        Check("searchIgnoresCaseAndDiacritics", searchIgnoresCaseAndDiacritics),
        Check("everySortIsStableWithTiesByIDInTheSameDirection(descending: false)") { try everySortIsStableWithTiesByIDInTheSameDirection($0, descending: false) },
        Check("everySortIsStableWithTiesByIDInTheSameDirection(descending: true)") { try everySortIsStableWithTiesByIDInTheSameDirection($0, descending: true) },
        Check("pagesCoverTheListExactlyOnce", pagesCoverTheListExactlyOnce),
        Check("tagsAreNormalizedSharedAndFilterable", tagsAreNormalizedSharedAndFilterable),
        Check("tagsListEveryTagEverStored", tagsListEveryTagEverStored),
        Check("filtersCombine", filtersCombine),
        Check("monthBoundariesFollowTheCivilDay", monthBoundariesFollowTheCivilDay),
        Check("overBudgetAndEmptyMonths", overBudgetAndEmptyMonths),
        Check("addingToABudgetByNameSavesTheExpenseAndAnswersItsMonth", addingToABudgetByNameSavesTheExpenseAndAnswersItsMonth),
        Check("addingToAnUnknownBudgetOrWithBrokenRulesSavesNothing", addingToAnUnknownBudgetOrWithBrokenRulesSavesNothing),
        Check("sumsTooLargeFailInsteadOfWrapping", sumsTooLargeFailInsteadOfWrapping),
        Check("oneBudgetsStatusMatchesItsLineAmongAllStatuses", oneBudgetsStatusMatchesItsLineAmongAllStatuses),
        Check("importCreatesBudgetsResolvesNamesAndRemembersTheFile", importCreatesBudgetsResolvesNamesAndRemembersTheFile),
        Check("aLargeImportKeepsEveryCharacterOfEveryRow", aLargeImportKeepsEveryCharacterOfEveryRow),
        Check("aBadRowInTheMiddleRollsTheWholeImportBack", aBadRowInTheMiddleRollsTheWholeImportBack),
        Check("unknownBudgetsFailTheImportListingEveryName", unknownBudgetsFailTheImportListingEveryName),
        Check("aRepeatedFileIsRefusedUnlessForced", aRepeatedFileIsRefusedUnlessForced),
        Check("aRestoreAppliesItsSettingsOnlyToAnEmptyLedgerAndKeepsEveryBudgetField", aRestoreAppliesItsSettingsOnlyToAnEmptyLedgerAndKeepsEveryBudgetField),
        Check("forEachExpenseVisitsWhatExpensesLists", forEachExpenseVisitsWhatExpensesLists),
        Check("bulkInsertIsAllOrNothingAndMatchesOneByOne", bulkInsertIsAllOrNothingAndMatchesOneByOne),
        Check("monthSummaryAndSpentByMonthEqualTheSingleFiguresAcrossMonthBoundaries", monthSummaryAndSpentByMonthEqualTheSingleFiguresAcrossMonthBoundaries),
        Check("reportAggregatesOfAnEmptyStoreAreEmpty", reportAggregatesOfAnEmptyStoreAreEmpty),
        Check("reportAggregatesTooLargeFailInsteadOfWrapping", reportAggregatesTooLargeFailInsteadOfWrapping),
        Check("aggregatesAndCachedFiguresAreTheCoreRules", aggregatesAndCachedFiguresAreTheCoreRules),
        Check("whyOverGroupsFollowEveryWrite", whyOverGroupsFollowEveryWrite),
        Check("periodFiguresAreTheCoreRulesAfterEditsToOldExpenses", periodFiguresAreTheCoreRulesAfterEditsToOldExpenses),
        Check("aOnceBudgetRefusesExpensesOutsideItsRange", aOnceBudgetRefusesExpensesOutsideItsRange),
        Check("recurringRulesAreAddedListedEditedAndRemoved", recurringRulesAreAddedListedEditedAndRemoved),
        Check("brokenRecurringRulesAreRefusedAndChangeNothing", brokenRecurringRulesAreRefusedAndChangeNothing),
        Check("postingIsIdempotentAndRemembersEachOccurrence", postingIsIdempotentAndRemembersEachOccurrence),
        Check("postingMatchesRecordedExpensesWithinThreeDaysAndTenPercent", postingMatchesRecordedExpensesWithinThreeDaysAndTenPercent),
        Check("postingIntoAOnceBudgetFollowsItsRange", postingIntoAOnceBudgetFollowsItsRange),
        Check("aBackupsRecurringRulesAreRestoredOnlyIntoALedgerWithoutRules", aBackupsRecurringRulesAreRestoredOnlyIntoALedgerWithoutRules),
        Check("warningLevelsAreKeptPerBudgetAndAsTheLedgersDefault", warningLevelsAreKeptPerBudgetAndAsTheLedgersDefault),
        Check("alertLevelsAreRememberedPerPeriod", alertLevelsAreRememberedPerPeriod),
        Check("expensesAreReadByIDIgnoringMissingOnes", expensesAreReadByIDIgnoringMissingOnes),
        Check("rulesAreAddedListedInImportOrderEditedAndRemoved", rulesAreAddedListedInImportOrderEditedAndRemoved),
        Check("splitAndRefundRulesRoundTripAndFollowTheirBudgets", splitAndRefundRulesRoundTripAndFollowTheirBudgets),
        Check("splitAndRefundRowsImportUndoAndRestore", splitAndRefundRowsImportUndoAndRestore),
        Check("brokenRulesAreRefusedAndChangeNothing", brokenRulesAreRefusedAndChangeNothing),
        Check("aRenamedBudgetKeepsItsRulesAndARemovedOneTakesThem", aRenamedBudgetKeepsItsRulesAndARemovedOneTakesThem),
        Check("rowKeysAreRememberedOnlyByImportsThatCommit", rowKeysAreRememberedOnlyByImportsThatCommit),
        Check("profilesAreSavedByNameKeyListedAndRemoved", profilesAreSavedByNameKeyListedAndRemoved),
        Check("whoSpentItIsKeptThroughEveryWriteAndFiltersTheList", whoSpentItIsKeptThroughEveryWriteAndFiltersTheList),
        Check("brokenNamesOfWhoSpentItAreRefusedAndChangeNothing", brokenNamesOfWhoSpentItAreRefusedAndChangeNothing),
        Check("everyKindOfChangeIsUndoneAndRedone", everyKindOfChangeIsUndoneAndRedone),
        Check("undoRefusesWhileALaterChangeTouchedTheSameRows", undoRefusesWhileALaterChangeTouchedTheSameRows),
        Check("undoWithNothingToUndoOrAnUnknownIDFailsAndADryRunWritesNothing", undoWithNothingToUndoOrAnUnknownIDFailsAndADryRunWritesNothing),
        Check("anImportIsOneChangeSetAndUndoingItForgetsItsRowsAndFile", anImportIsOneChangeSetAndUndoingItForgetsItsRowsAndFile),
        Check("historyIsPrunedWholeAfterItsLength", historyIsPrunedWholeAfterItsLength),
        Check("accountsAreAddedListedEditedAndRemovedWithTheirEntries", accountsAreAddedListedEditedAndRemovedWithTheirEntries),
        Check("balancesFollowIncomesAndTransfersForAssetsAndLiabilities", balancesFollowIncomesAndTransfersForAssetsAndLiabilities),
        Check("brokenAccountRulesAreRefusedAndChangeNothing", brokenAccountRulesAreRefusedAndChangeNothing),
        Check("accountsKeepAUniqueNumber", accountsKeepAUniqueNumber),
        Check("transferRulesFollowTheirAccount", transferRulesFollowTheirAccount),
        Check("reconcilingRecordsOnlyAMatchAndLocksTheEntriesUpToIt", reconcilingRecordsOnlyAMatchAndLocksTheEntriesUpToIt),
        Check("accountFiguresAreIncomeWithinAndNetWorthAtEachPeriodsEnd", accountFiguresAreIncomeWithinAndNetWorthAtEachPeriodsEnd),
        Check("expensesPaidFromAccountsMoveBalancesAndLockWhenReconciled", expensesPaidFromAccountsMoveBalancesAndLockWhenReconciled),
        Check("foreignAmountsAndRatesRoundTripAndReapplyChangesOnlyTableRates", foreignAmountsAndRatesRoundTripAndReapplyChangesOnlyTableRates),
        Check("foreignIncomesRoundTripReapplyAndUndo", foreignIncomesRoundTripReapplyAndUndo),
        Check("spendingByCurrencyIsTheRuleAfterEveryWrite", spendingByCurrencyIsTheRuleAfterEveryWrite),
        Check("aBudgetInItsOwnCurrencyCountsEachExpenseAtItsDaysRate", aBudgetInItsOwnCurrencyCountsEachExpenseAtItsDaysRate),
    ]
}
