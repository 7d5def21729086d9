/**
 * About 2,000 common English words, roughly ranked by how often they occur in general English
 * (written for toolsift from general knowledge; bands matter more than exact ranks). Search uses
 * it to weigh query words down: a raw request is full of everyday words ("can", "show", "help")
 * that tool descriptions rarely contain, so plain BM25 would treat them as rare and rank by them.
 */

// Band 1: the most frequent words of all (mostly function words and very general verbs).
const BAND_1 = `the be to of and a in that have i it for not on with he as you do at this but his by
from they we say her she or an will my one all would there their what so up out if about who get
which go me when make can like time no just him know take people into year your good some could
them see other than then now look only come its over think also back after use two how our work
first well way even new want because any these give day most us is are was were been has had did
does said made got went going let please thanks need help show tell find something thing things
really very much many lot lots sure yes okay ok hi hello hey dear would should might may must shall`;

// Band 2: very common content words and general verbs.
const BAND_2 = `man woman child world life hand part place case week company system program question
government number night point home water room mother area money story fact month right study book eye
job word business issue side kind head house service friend father power hour game line end member
law car city community name president team minute idea kid body information back parent face others
level office door health person art war history party result change morning reason research girl guy
moment air teacher force education foot boy age policy everything process music market sense nation
plan college interest death experience effect class control care field development role effort rate
heart drug show leader light voice wife police mind price report decision son view relationship town
road arm difference value building action model season society tax director position player record
paper space ground form event official matter center couple site project activity star table need
court american oil situation cost industry figure street image phone data picture practice piece land
product doctor wall patient worker news test movie north love support technology step baby computer
type attention film tree source organization hair window evidence population truth song church
daily general human local national public social able best better big certain clear different early
easy economic free full great hard high important large last late little long low major military old
only political possible real recent small special strong sure whole young already always again
around away ever here never often once perhaps quite rather really since still sometimes together
today tonight tomorrow yesterday usually actually almost enough especially however instead later
maybe probably simply soon though through yet ask become begin believe bring call continue feel
follow happen hear hold include keep lead learn leave live lose mean meet move pay play provide put
read remember run seem set sit stand start stay talk try turn understand walk watch write allow
appear build buy consider create die expect fall grow kill offer open reach remain serve spend stop
suggest win add agree cause change check close cut decide describe develop draw drive eat explain
fight fill finish fly forget hope improve increase join kind laugh lie listen love manage mention
miss note order pass pick plan prepare produce protect prove raise receive reduce relate report
return rise save sell send share sign speak support teach thank travel visit wait wish wonder worry
i'm don't can't it's that's i'd i've you're let's wanna gonna kindly`;

// Band 3: common words of everyday requests and writing.
const BAND_3 = `able above accept according account across act action actually address admit adult
affect afraid against agency agent ago ahead alone along although among amount analysis animal
another answer anyone anything approach argue army arrive article artist assume attack audience
author authority available avoid ball bank bar base beat beautiful bed behavior behind benefit beyond
bill billion bit black blood blue board born both box break brother budget building camera campaign
cancer candidate capital card career carry catch cell central century chair challenge chance
character charge choice choose citizen civil claim clearly coach cold collection color commercial
common compare concern condition conference congress consumer contain contain cover create crime
cultural culture cup current customer dark deal debate decade deep defense degree democrat describe
design despite detail determine difficult dinner direction discover discuss disease dog dream during
each east eight either election else employee energy environment environmental establish evening
everybody everyone exactly example executive exist expert eye factor fail family far fast fear federal
feeling few final finally financial fine finger fire firm fish five floor focus food foreign form
former forward four friend front future garden gas generation get girl glass goal green gun half
happy heat heavy herself himself hit hospital hot hotel huge hundred husband identify imagine impact
individual inside instead institution international interview investment involve itself key kitchen
knowledge language large lawyer least left leg less letter likely list little loss lot machine
magazine main maintain majority manager material media medical meeting memory message method middle
might million mind miss mission modern moment movement mrs much myself natural nature near nearly
necessary network nice none nor note nothing notice number occur off officer oh ok operation
opportunity option organization others outside owner page pain painter paper parent particular
particularly partner past patient pattern peace per perform performance period personal physical
plant pm poor popular population positive prepare present pressure pretty prevent private probably
problem professional professor property public pull purpose quality quickly radio range rather
ready realize receive recently recognize red region religious remove represent republican require
resource respond response rest rich risk rock rule safe same scene school science scientist score
sea seat second section security senior series serious seven several sexual shake share shoot short
shot shoulder significant similar simple single sister situation six size skill skin social soldier
someone somebody somewhere sort sound south southern speech sport spring staff stage standard state
statement station stock store strategy structure student stuff style subject success successful
suddenly suffer summer surface system table task teach television term terms test thank themselves
theory third thousand threat throughout thus top total tough toward trade traditional training
treat treatment trial trip trouble true truth tv twenty upon various version victim violence vote
wear weapon west western whatever white whom whose wide wind window within without wonder worker
wrong yard yeah yourself zero across favorite ideas interested planning looking trying working
wanted needed using getting making giving taking buying finding helping interesting recommend
recommendations suggestions suggest provide provides providing information details detail latest
current recent today popular top best good nice cool fun local nearby around upcoming specific
particular certain different various several multiple available possible`;

// Band 4: further common words (ranks roughly 1,200–2,000).
const BAND_4 = `ability absolutely academic accident accompany accomplish accurate achieve
acknowledge acquire additional adequate adjust administration admire adopt advance advantage
adventure advertising advice advise affair afford afternoon agenda aggressive agreement aid aim
aircraft airline airport alive alter alternative amazing ancient anger angle angry announce annual
anxiety anybody anymore anyway anywhere apartment apparent apparently appeal apple application
appointment appreciate appropriate approval approve architect argument arrange arrangement arrest
aside asleep aspect assault assess assessment asset assign assist assistance assistant associate
association atmosphere attach attempt attend attitude attorney attract attractive aunt average award
aware awareness awful background bad bag balance band barely barrier baseball basic basically basis
basket basketball bathroom battery battle bear beach bean beauty bedroom beer beginning behalf being
belief belong beneath bike bird birth birthday bitter blame blanket blind block boat bomb bond bone
bonus boot border bother bottle bottom bowl brain branch brand brave bread breakfast breath brief
bright brilliant broad brown brush buck bug burn bus busy butter button cabinet cable cake calculate
calm can cap capability capable captain capture carbon careful carefully carrier cash cast cat
category celebrate celebration championship channel chapter chart cheap cheese chef chemical chest
chicken chief chip chocolate circle circumstance classic classroom clean client climate climb clinic
clock clothes cloud club coast coat code coffee collect collective colleague combination combine
comedy comfortable command comment commission commitment committee communicate communication
comparison competition competitive complain complaint complete completely complex component computer
concept conclude conclusion concrete confidence confirm conflict confront confusion connect
connection consequence conservative consist constant constantly construct construction consult
contact content contest context contract contrast contribute contribution conversation convert
convince cook cookie cool cooperation copy core corner corporate correct cotton couch council
counselor count counter country county courage course cousin crack craft crash crazy cream creative
creature credit crew crisis criteria critic critical crop cross crowd crucial cry curious currency
cycle dad damage dance danger dangerous database dead deadline dear debt declare decline decrease
deeply deer define definitely definition delay deliver delivery demand demonstrate deny department
depend dependent depression depth deputy desert deserve desk desperate destroy destruction detect
device diet difficulty digital dimension dining direct directly dirty disability disappear discipline
discount discovery discussion dish display distance distant distinct distinction distribute
distribution district diverse divide division divorce document domestic dominant door double doubt
draft drag drama dramatic dress drink drop dry due dust duty eager earn earth ease easily eastern
economics economy edge edit edition editor educational effective effectively efficient egg elderly
element elementary elsewhere email embrace emerge emergency emotion emotional emphasis empire employ
employer employment empty enable encounter encourage enemy engage engine engineer engineering enhance
enjoy enormous ensure enter enterprise entertainment entire entirely entrance entry equal equally
equipment error escape essay essential essentially estate estimate ethnic evaluate evaluation
eventually everyday evidence evil evolution exact examination examine excellent except exception
exchange exciting excuse exercise exhibit exhibition existence existing expand expansion expectation
expense expensive experiment explanation explore export expose exposure express expression extend
extension extensive extent external extra extraordinary extreme extremely fabric facility fade
failure fair fairly faith false fame familiar famous fan fantastic fashion fat fate fault favor
feature fee feed fellow female fence fewer fiber fiction fifteen fifth fifty file film filter fit
fix flag flat flavor flight float flow flower fold folk following fool football force forest forever
formal formation fortune forth foundation frame frankly freedom frequently fresh friendly fruit fuel
fully function fund fundamental funding funny furniture furthermore gain gallery gap gather gay gaze
gender gene generally generate genetic gentleman gently gift given glad global golf gold gonna grab
grade gradually grand grandfather grandmother grant grass grave gray greatest grocery guarantee
guard guess guest guidance guide guilty habit hall handle hang hardly hat hate headline healthy hearing
height hell hero hey hide highlight highly highway hill hire historian historical hockey holiday holy
honest honey honor horizon horror horse host household housing ice ideal identity ignore ill illegal
illness illustrate immediately immigrant immigration implement implication imply importance impose
impossible impress impression impressive incentive incident income incorporate incredible indeed
independence independent index indicate indication industrial infant infection inflation influence
inform initial initially initiative injury inner innocent input inquiry insight insist inspire
install instance instruction instrument insurance intellectual intelligence intend intense intention
interaction internal internet interpret interpretation intervention introduce introduction invest
investigate investigation investigator investor invite involved iron island item jacket jail joint
joke journal journalist journey joy judge judgment juice jump junior jury justice justify keep kick
kiss knee knife knock lab label labor lack lady lake landscape lane large largely laser latter launch
lay layer leadership leading leaf league lean legacy legal legend legislation legitimate lemon length
lesson liberal library license lift limit limited link lip literally literary literature load loan
location lock long-term loose lord lose loud lovely lover lower luck lucky lunch luxury mail mainly
make-up male mall manner manufacturer map margin mark marketing marriage married mask mass massive
master match math maximum meal meaning meanwhile measure measurement meat mechanism medication
medicine medium mental menu mere merely mess metal meter mid midnight mile milk minister minor
minority miracle mirror missile mix mixture mode moderate modest mom monitor mood moral moreover
mortgage mostly motion motivation motor mount mountain mouse mouth movie mud multiple murder muscle
museum musical musician mutual mystery myth naked narrative narrow native naval neck negative
negotiate neighbor neighborhood neither nerve nervous net neutral nevertheless newly newspaper nod
noise nominee normal normally northern nose notion novel nowhere nuclear numerous nurse nut object
objective obligation observation observe obtain obvious obviously occasion occasionally ocean odd
odds offense offensive official online ongoing onion open opening operate operator opinion opponent
oppose opposite orange ordinary organic organize orientation origin original otherwise ought outcome
output overall overcome overlook owe ownership pace pack package pair palm pan panel panic pants
participant participate participation partly passage passenger passion pasta path patience pause
payment peak peer penalty pension pepper percent percentage perception perfect perfectly permanent
permission permit personality personally perspective persuade phase phenomenon philosophy photo
photograph photographer phrase physician piano pie pile pilot pine pink pipe pitch planet plastic
plate platform pleasure plenty plot plus pocket poem poet poetry pole poll pollution pool pop porch
port portion portrait pose possess possibility possibly post pot potato potential potentially pound
pour poverty powerful practical pray prayer precisely predict prefer preference pregnancy pregnant
preparation prescription presence presentation preserve press presumably prevent previous
previously pride priest primarily primary prime principal principle print prior priority prison
prisoner privacy prize pro probably procedure proceed producer production profession profile profit
progress promise promote prompt proof proper properly proportion proposal propose prospect
protection protein protest proud psychological psychology pursue qualify quarter quick quiet quote
race racial rain raise ranch rank rapid rapidly rare rarely rat rate rating ratio raw react reaction
reader reading reality reasonable recall recipe recognition recommendation recover recovery recruit
reduction refer reference reflect reflection reform refugee refuse regard regarding regardless
regime regional register regular regularly regulate regulation reinforce reject relation relative
relatively relax release relevant relief religion rely remaining remarkable remind remote rent
repeat repeatedly replace reply representation representative reputation request requirement
rescue resemble reservation resident resist resistance resolution resolve resort respect
respondent responsibility responsible restaurant restore restriction retain retire retirement reveal
revenue review revolution rhythm rice ride rifle ring rip risk river roll romantic roof root rope
rough roughly round route routine row rub ruin rural rush sacred sad safety sake salad salary sale
salt sample sanction sand satellite satisfaction satisfy sauce saving scale scandal scared schedule
scheme scholar scholarship screen script sector secure seed seek segment seize select selection
self senator sensitive sentence separate sequence server session settle settlement shade shadow
shape shelf shell shelter shift shine ship shirt shock shoe shop shopping shore shortly shout shower
shut sick sight signal signature significantly silence silent silver simply sin sing singer sink
sir situation ski sky slave sleep slice slide slight slightly slip slow slowly smart smell smile
smoke smooth snap snow so-called soccer soft software soil solar solid solution solve somehow son
sophisticated soul soup southern spare speaker specialist species specific specifically speed spirit
spiritual split spokesman spot spread stable stadium stake stance stare status steady steal steel
stick stir stomach stone storage storm straight strange stranger strategic stream strength stress
stretch strike string strip stroke structure struggle studio stupid submit substance substantial
suburb succeed sudden sue sufficient sugar suit summit sun super supply supporter suppose supposed
supreme surely surgery surprise surprised surprising surround survey survival survive survivor
suspect sustain swear sweep sweet swim swing switch symbol symptom tail tale tall tank tap tape
target taste taxpayer tea teaching teaspoon technical technique teen teenager telephone telescope
temperature temporary tend tendency tennis tension tent terrible territory terror terrorism
terrorist testify testimony testing text thanks theater therapy therefore thick thin thinking thirty
thought threaten tie tight timing tiny tip tire tired tissue title tobacco toe tomato tone tongue
tool tooth topic toss touch tour tourist tournament tower toy trace track trail train transfer
transform transformation transition translate transportation trap trash tray treaty trend tribe
trick troop truck truly trust tube tunnel twice twin typical typically ugly ultimate ultimately
unable uncle undergo uniform union unique unit universal universe university unknown unless unlike
unlikely until unusual upper urban urge used useful user usual utility vacation valley valuable
variable variation variety vast vegetable vehicle venture very vessel veteran via video village
violate violent virtual virtually virtue visible vision visitor visual vital volume volunteer
vulnerable wage wake war warm warn warning wash waste wave weak wealth wealthy weather web wedding
weekend weekly weigh weight welcome welfare wet whenever whereas wherever whisper wild wildlife
willing wine wing winner winter wire wise witness wooden wound wrap writer writing yell yield
youth zone`;

const rankByWord = new Map<string, number>();
const bandByWord = new Map<string, number>();
let nextRank = 0;
[BAND_1, BAND_2, BAND_3, BAND_4].forEach((band, bandIndex) => {
  for (const word of band.split(/\s+/)) {
    if (word.length === 0 || rankByWord.has(word)) continue;
    rankByWord.set(word, nextRank);
    bandByWord.set(word, bandIndex + 1);
    nextRank += 1;
  }
});

/** How many distinct words the common-word list holds. */
export const COMMON_WORD_COUNT = nextRank;

/** The rank (0 = most common) of a lowercase, unstemmed word in general English, or -1 if rare. */
export function commonWordRank(word: string): number {
  return rankByWord.get(word) ?? -1;
}

/** The frequency band of a lowercase, unstemmed word: 1 (most common) to 4, or 0 when not listed. */
export function commonWordBand(word: string): number {
  return bandByWord.get(word) ?? 0;
}
