/**
 * Small closed word lists used by the offline extractor (server/extractors/offline/).
 * Everything here is lowercase and matched against lowercased, accent-free tokens.
 */

const set = (words: string): ReadonlySet<string> =>
  new Set(
    words
      .trim()
      .split(/\s*\|\s*|\n+/)
      .map((w) => w.trim())
      .filter(Boolean),
  );

/** Lowercase words allowed *inside* a capitalised span when a capitalised word follows ("Bank of the West", "Jean de la Fontaine"). */
export const NAME_CONNECTORS = set(
  'of | the | de | du | des | la | le | les | da | di | del | della | dei | do | dos | das | von | van | der | den | ter | ten | y | al | el | bin | ibn | zu | af | am | on | upon | und | et | e | &',
);

/** Connectors at which a long name is split into components ("Adalbert II of Tuscany" -> "Adalbert II", "Tuscany"); not "the"/"on" ("Walk the Line"). */
export const COMPONENT_SPLITTERS = set(
  'of | and | de | du | des | da | di | del | della | dei | do | dos | das | von | van | der | den | ter | ten | y | bin | ibn | zu | af | und | et | e | &',
);

/** Words that never form an entity on their own (capitalised function words, pronouns, discourse markers). */
export const JUNK_WORDS = set(`
a | an | the | this | that | these | those | there | here | it | its | he | she | his | her | hers | him | they | them | their | we | our | you | your | i | me | my | mine
in | on | at | of | for | to | from | by | with | as | into | onto | after | before | during | since | until | while | when | where | why | how | what | which | who | whom | whose
and | or | but | nor | so | yet | if | then | than | however | although | though | whilst | also | both | either | neither | not | no | yes | all | any | some | many | most | other | such | each | every
is | was | are | were | be | been | being | has | have | had | do | does | did | will | would | shall | should | can | could | may | might | must
mr | mrs | ms | dr | prof | sir | st | jr | sr | mt | ft | co | inc | ltd | vs | etc | ii | i
january | february | march | april | june | july | august | september | october | november | december | jan | feb | mar | apr | jun | jul | aug | sep | sept | oct | nov | dec
monday | tuesday | wednesday | thursday | friday | saturday | sunday
one | two | three | four | five | six | seven | eight | nine | ten | first | second | third | last | next | new | old | former | late | early
today | yesterday | tomorrow | now | later | currently | originally | formerly | additionally | furthermore | moreover | meanwhile | instead | thus | therefore | hence
`);

/** Month names (a capitalised month is a date part, not a proper-noun entity). */
export const MONTHS = set(
  'january | february | march | april | may | june | july | august | september | october | november | december | jan | feb | mar | apr | jun | jul | aug | sep | sept | oct | nov | dec',
);

/** Single capitalised words that are generic heads: dropped when they are a *component* of a longer name ("University" of "University of X"). */
export const GENERIC_HEADS = set(`
university | college | school | academy | institute | institution | department | ministry | museum | library | hospital | church | cathedral | abbey | chapel | temple | mosque
king | queen | prince | princess | duke | duchess | earl | count | countess | baron | baroness | lord | lady | emperor | empress | bishop | archbishop | pope | saint | sir | president | governor | mayor | minister | chancellor | general | captain | senator | judge
kingdom | republic | empire | state | states | county | province | city | town | village | district | region | island | islands | river | lake | mount | mountain | valley | bay | sea | ocean | coast | north | south | east | west | central
party | club | association | society | council | committee | league | union | company | corporation | group | band | orchestra | records | pictures | studios | bank | army | navy | force | battle | war | house | court | office | board | order | cup | award | prize | championship | team
film | films | movie | song | album | single | novel | book | series | season | episode | show | magazine | newspaper | journal | singer | actor | actress | director | writer | leader | chairman | secretary
`);

/** Role words after which the rest of a capitalised span is a person's name ("Supreme Leader Kim Jong-il"). */
export const ROLE_WORDS = set(
  'leader | chairman | chairwoman | secretary | premier | chancellor | minister | president | vice | speaker | governor | mayor | senator | representative | ambassador | commissioner | general | marshal | admiral | colonel | captain | lieutenant | sergeant | commander | director | coach | manager | founder | ceo | editor | producer | host | anchor | judge | justice | bishop | archbishop | cardinal | pope | king | queen | emperor | empress | prince | princess | duke | duchess | earl | count | baron | lord | lady | sir | dame | dr | prof | professor | mr | mrs | ms | saint | st | rev | reverend | father | sheikh | sultan | emir | shah | tsar | hm | hrh',
);

/** Kin nouns: a sentence-initial "Daughter of King Constantine I" is a relation to the name, not a name. */
export const KIN_WORDS = set(
  'daughter | son | wife | husband | mother | widow | widower | sister | brother | child | grandson | granddaughter | niece | nephew | heir | heiress',
);

export const ORG_WORDS = set(`
university | college | school | academy | institute | institution | department | ministry | museum | library | hospital | party | club | association | society | council | committee | league | union
company | corporation | corp | inc | games | software | interactive | productions | pictures | ltd | llc | plc | group | band | orchestra | records | pictures | studios | studio | films | entertainment | media | press | publishing | publishers | network | channel | bank | army | navy | airlines | airways
foundation | agency | commission | forum | campaign | movement | alliance | front | coalition | centre | center | fund | council | organization | organisation | federation | board | trust | fc | a.f.c | united | rovers | wanderers | athletic | church | order | senate | parliament | congress | assembly | government | newspaper | magazine | journal | times | post | herald | tribune | gazette
`);

export const PLACE_WORDS = set(`
river | lake | mountain | mountains | mount | mt | hill | hills | valley | bay | sea | ocean | gulf | coast | island | islands | peninsula | desert | forest | park | county | province | state | city | town | village | district | region | municipality | parish | borough | prefecture | canton | oblast | territory
street | road | avenue | square | bridge | castle | palace | tower | station | airport | port | harbour | harbor | cathedral | abbey | stadium | arena | range | falls | canal | strait | cape | glacier | reservoir | basin | kingdom | republic | empire
`);

export const PERSON_TITLES = set(`
hm | hrh | hon | his majesty | emperors | kings | queens | princes | princesses | dukes | saints | sultan | shah | khan | tsar | czar | caliph | pharaoh | chief | sheikh | rabbi | imam | elder | younger
mr | mrs | ms | miss | dr | prof | professor | sir | dame | lord | lady | king | queen | prince | princess | duke | duchess | earl | count | countess | baron | emperor | empress | pope | saint | st | president | senator | governor | general | captain | colonel | admiral | bishop | archbishop | rev | reverend | father | sister | brother | uncle | aunt | judge | justice
`);

/** Disambiguator words in Wikipedia-style titles ("X (film)", "Y (1925 film)", "Z (Chris Brown song)") mapped to entity types. */
export const DISAMBIGUATOR_TYPES: ReadonlyArray<[RegExp, string]> = [
  [
    /\b(film|movie|tv series|television series|series|miniseries|sitcom|soap opera|episode|season \d+|song|single|album|ep|soundtrack|novel|book|novella|poem|play|opera|musical|ballet|magazine|newspaper|journal|comics?|manga|video game|game|painting|sculpture|short story|story|franchise|anthology)\b/i,
    'Work',
  ],
  [
    /\b(band|group|company|organization|organisation|club|party|team|record label|label|university|college|school|airline|newspaper company|publisher|studio)\b/i,
    'Organization',
  ],
  [
    /\b(actor|actress|director|film director|footballer|soccer|singer|politician|writer|musician|author|poet|artist|bishop|composer|filmmaker|cinematographer|cricketer|chess player|businessman|businesswoman|architect|rower|journalist|producer|rapper|painter|athlete|boxer|wrestler|swimmer|cyclist|player|coach|manager|priest|saint|king|queen|prince|princess|duke|earl|lawyer|judge|scientist|physicist|chemist|mathematician|philosopher|historian|economist|engineer|inventor|photographer|designer|dancer|comedian|presenter|broadcaster|model|activist|soldier|general|officer|admiral|sculptor|novelist|playwright|screenwriter|lyricist|songwriter|guitarist|drummer|pianist|violinist|conductor|diplomat|official|statesman|sportsman|jockey|runner|skier|tennis|golfer|racing driver|born \d+|died \d+)\b/i,
    'Person',
  ],
  [
    /\b(river|lake|mountain|city|town|village|county|province|state|district|region|island|municipality|parish|commune|borough|neighbourhood|neighborhood|station|airport|stadium|building|castle|church)\b/i,
    'Place',
  ],
];

/** Countries, US states, provinces and a few regions: "City, <one of these>" is a Place. */
export const REGION_NAMES = set(`
afghanistan | albania | algeria | andorra | angola | argentina | armenia | australia | austria | azerbaijan | bahamas | bahrain | bangladesh | barbados | belarus | belgium | belize | benin | bhutan | bolivia | bosnia and herzegovina | botswana | brazil | brunei | bulgaria | burkina faso | burundi | cambodia | cameroon | canada | chad | chile | china | colombia | congo | costa rica | croatia | cuba | cyprus | czech republic | czechoslovakia | denmark | djibouti | dominica | dominican republic | ecuador | egypt | el salvador | england | eritrea | estonia | ethiopia | fiji | finland | france | gabon | gambia | georgia | germany | ghana | greece | grenada | guatemala | guinea | guyana | haiti | honduras | hong kong | hungary | iceland | india | indonesia | iran | iraq | ireland | israel | italy | jamaica | japan | jordan | kazakhstan | kenya | korea | north korea | south korea | kosovo | kuwait | kyrgyzstan | laos | latvia | lebanon | lesotho | liberia | libya | liechtenstein | lithuania | luxembourg | madagascar | malawi | malaysia | maldives | mali | malta | mauritania | mauritius | mexico | moldova | monaco | mongolia | montenegro | morocco | mozambique | myanmar | burma | namibia | nepal | netherlands | new zealand | nicaragua | niger | nigeria | northern ireland | norway | oman | pakistan | palestine | panama | paraguay | persia | peru | philippines | poland | portugal | prussia | qatar | romania | russia | rwanda | saudi arabia | scotland | senegal | serbia | sierra leone | singapore | slovakia | slovenia | somalia | south africa | soviet union | spain | sri lanka | sudan | suriname | sweden | switzerland | syria | taiwan | tajikistan | tanzania | thailand | togo | tonga | trinidad and tobago | tunisia | turkey | turkmenistan | uganda | ukraine | united arab emirates | united kingdom | uk | united states | united states of america | usa | us | u.s | uruguay | uzbekistan | venezuela | vietnam | wales | yemen | yugoslavia | zambia | zimbabwe | europe | asia | africa | north america | south america | oceania | antarctica
alabama | alaska | arizona | arkansas | california | colorado | connecticut | delaware | florida | hawaii | idaho | illinois | indiana | iowa | kansas | kentucky | louisiana | maine | maryland | massachusetts | michigan | minnesota | mississippi | missouri | montana | nebraska | nevada | new hampshire | new jersey | new mexico | new york | north carolina | north dakota | ohio | oklahoma | oregon | pennsylvania | rhode island | south carolina | south dakota | tennessee | texas | utah | vermont | virginia | washington | west virginia | wisconsin | wyoming | d.c | washington d.c
ontario | quebec | british columbia | alberta | manitoba | saskatchewan | nova scotia | new brunswick | newfoundland | queensland | new south wales | victoria | tasmania | western australia | south australia | bavaria | saxony | tuscany | lombardy | sicily | catalonia | andalusia | brittany | normandy | provence | flanders | bengal | punjab | kerala | tamil nadu | maharashtra | karnataka | gujarat | rajasthan | bihar | uttar pradesh | kashmir
`);

/** Person titles that are also the first word of place/organisation names: never stripped from a name. */
export const NON_STRIPPABLE_TITLES = set(
  'st | saint | san | santa | sao | mount | mt | fort | port | general | chief | elder | younger | father | brother | sister | uncle | aunt',
);

/** Lowercase head nouns that continue a capitalised name in Wikipedia prose ("Eastern Han dynasty", "Ottoman empire"). */
export const LOWER_NAME_HEADS = set(
  'dynasty | empire | kingdom | river | family | clan | tribe | islands | island | mountains | valley | county | province | prefecture | district | railway | canal | caliphate | sultanate | khanate',
);

/** Lowercase words that follow a capitalised word after a glued hyphen without being part of the name ("Canadian-born"). */
export const HYPHEN_SUFFIX_STOP = set(
  'born | based | language | speaking | owned | led | era | style | class | type | like | related | year | old | century | made | funded | backed | controlled | occupied | dominated | inspired | themed | centric | bound | wide | only | level | run | produced | american | british | canadian | australian',
);

/** Well-known cities. */
export const CITY_NAMES = set(`
london | paris | berlin | rome | madrid | moscow | tokyo | beijing | vienna | prague | budapest | warsaw | amsterdam | brussels | stockholm | oslo | copenhagen | helsinki | dublin | edinburgh | lisbon | athens | istanbul | cairo | delhi | new delhi | mumbai | kolkata | chennai | shanghai | hong kong | sydney | melbourne | toronto | montreal | vancouver | chicago | boston | los angeles | san francisco | philadelphia | hollywood | manhattan | brooklyn | seattle | detroit | atlanta | miami | houston | dallas | hamburg | munich | milan | naples | venice | florence | barcelona | seoul | bangkok | singapore | mexico city | buenos aires | rio de janeiro | sao paulo
`);

/** Any known place name: a capitalised span equal to one of these is typed Place. */
export const PLACE_NAMES: ReadonlySet<string> = new Set([...REGION_NAMES, ...CITY_NAMES]);

/** Titles that follow a name after a comma and belong to it ("Patrick Lyon, 3rd Earl of Strathmore", "Sir Edward Buxton, 2nd Baronet"). */
export const NOBLE_TITLES = set(`
prince | princess | duke | duchess | earl | count | countess | baron | baroness | baronet | viscount | viscountess | marquess | marquis | marchioness | landgrave | landgravine | margrave | margravine | elector | electress | archduke | archduchess | grand duke | grand duchess
king | queen | lord | lady | graf | grafin | seigneur | burgrave | palatine | emir | sultan | khan | shah | tsar | tsarina | bishop | archbishop | abbot | abbess | infante | infanta | dauphin | regent | ruler | sovereign | dame | grand
`);

/** Compass adjectives stripped from a single following word ("Northern Indian" -> "Indian"). */
export const COMPASS_ADJECTIVES = set('northern | southern | eastern | western | central | upper | lower | north | south | east | west');

/** Demonyms / nationality adjectives (capitalised adjectives kept as entities of type 'Nationality'). */
export const DEMONYM_SUFFIX = /(an|ian|ese|ish|i|ch|sh)$/;

/** Common given names (lowercase, accent-free): a 2–4 word capitalised span starting with one is typed Person. */
export const GIVEN_NAMES = set(`
aaron | abraham | adam | adolf | adrian | agnes | ahmed | alan | albert | alberto | alexander | alexandre | alexei | alfred | alfredo | alice | alicia | alan | allan | amanda | amy | ana | anders | andre | andrea | andreas | andrew | andrei | andrzej | angela | angelo | ann | anna | anne | annie | anthony | antoine | anton | antonio | arnold | arthur | august | augusto | barbara | barry | ben | benjamin | bernard | bernardo | bertha | betty | bill | billy | bob | bobby | boris | brad | brian | bruce | bruno | carl | carla | carlo | carlos | carol | caroline | catherine | cecil | charles | charlie | charlotte | chris | christian | christina | christine | christopher | claude | claudio | clara | clarence | claire | craig | cristina | daniel | daniela | danny | dave | david | dean | dennis | diana | diego | dmitri | dmitry | dominic | don | donald | doris | dorothy | douglas | earl | eddie | edgar | edith | edmund | eduardo | edward | edwin | elena | eleanor | elizabeth | ella | ellen | emil | emile | emily | emma | enrico | eric | erik | ernest | ernst | esther | eugene | eva | evelyn | federico | felix | fernando | florence | frances | francesco | francis | francisco | franco | frank | franz | fred | frederick | friedrich | gabriel | gary | george | georg | georges | gerald | gerard | gerhard | giovanni | giuseppe | gordon | grace | gregory | guillaume | gustav | guy | hans | harold | harry | heinrich | helen | helena | helmut | henri | henry | herbert | herman | hermann | howard | hugh | hugo | ian | igor | ingrid | irene | isaac | isabel | isabella | ivan | jack | jacob | jacques | james | jan | jane | janet | jason | jean | jeff | jeffrey | jennifer | jerry | jessica | jim | jimmy | joan | joe | johann | johannes | john | johnny | jonathan | jorge | jose | josef | joseph | juan | judith | julia | julian | julie | julius | karen | karl | kate | katherine | kathleen | keith | ken | kenneth | kevin | kim | klaus | kurt | larry | laura | lawrence | leo | leon | leonard | leonardo | lewis | lisa | louis | louise | lucas | lucy | luigi | luis | luke | manuel | marc | marcel | marco | margaret | maria | marie | mario | mark | marko | martha | martin | mary | matthew | maurice | max | michael | michel | miguel | mikhail | nancy | nathan | neil | nicholas | nick | nicolas | nikolai | noel | norman | oliver | olga | oscar | otto | pablo | patricia | patrick | paul | paula | pedro | peter | philip | philippe | pierre | pietro | rachel | ralph | raymond | rebecca | richard | rick | robert | roberto | roger | roland | ronald | rose | roy | rudolf | russell | ruth | ryan | sam | samuel | sandra | sarah | scott | sean | sergei | sergio | simon | sophie | stanley | stefan | stephen | steve | steven | susan | thomas | tim | timothy | tom | tommy | tony | ulrich | victor | vincent | vladimir | walter | wayne | werner | wilhelm | william | willie | yuri
`);
