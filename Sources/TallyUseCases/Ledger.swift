import TallyCore
import TallyStores
