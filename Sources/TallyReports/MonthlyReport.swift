import TallyCore
