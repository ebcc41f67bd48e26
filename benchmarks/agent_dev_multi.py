"""Multilingual tuning cases of the agent benchmark: household talk in German, French, Spanish, Italian and Dutch.

48 conversations (de/fr/es 12 each, it/nl 6 each), all ``dev``, amounts said as people say them ("zwei Euro
fünfzig", "dos con cincuenta"). Kinds ``COUNTS``: money (the cents kept), data (semicolon CSV with decimal commas,
JSON), follow-ups (the second turn reuses the first's answer or file) and offline (live lookups, where only an
honest "can't" is right, beside look-alikes answered from a file of the folder). Expected values are computed
here from the stated figures and the files. tests/server/test_dev_multi_checks.py tries every check. Run:
``benchmarks/agent --cases benchmarks.agent_dev_multi --split dev --no-home --models qwen2.5-coder-1.5b``
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from collections import Counter

from benchmarks import agent_checks as ck
from benchmarks.agent_cases import Case, Result
from benchmarks.agent_lang import numbers_in

Check = ck.Check


# ------------------------------------------------------------------ checks (over agent_checks')


def cents(x: float, lang: str) -> Check:
    """The answer holds the amount ``x`` to the cent (a longer decimal that rounds to it passes too)."""
    return ck.says_value(round(x + 1e-9, 2), lang, 0.006, 0.0)


def exact(n: int, lang: str) -> Check:
    """The answer holds the whole number ``n`` (a count)."""
    return ck.says_value(n, lang, 0.0, 0.0)


def tenth(x: float, lang: str) -> Check:
    """The answer holds ``x`` to one decimal (kWh, degrees: 4,6 for 4.6; 4,5 is wrong)."""
    return ck.says_value(x, lang, 0.051, 0.0)


def mentions(*words: str) -> Check:
    """The answer holds every one of ``words`` at a word start (case-insensitive)."""
    return lambda r: all(re.search(rf"(?<!\w){re.escape(w.lower())}", r.answer.lower()) for w in words)


def cant(lang: str, turns: list[str]) -> Check:
    """A live lookup offline: the answer says it can't (agent_checks.CANT, in ``lang`` or English), nothing
    reached the network, and no figure is said but the question's own (a clock time it named): a made-up
    temperature or price, or a value printed from an unrelated file, is wrong."""
    pattern = re.compile(f"{ck.CANT[lang]}|{ck.CANT['en']}", re.I)
    asked = {int(n) for n in numbers_in(" ".join(turns), lang) if n == int(n)}

    def check(r: Result) -> bool:
        ran = any(
            b.get("decision") == "allow" and "network" in (b.get("category") or [])
            for reply in r.replies
            for b in reply.get("code_blocks", [])
        )
        said = {int(d) for d in re.findall(r"\d+", r.answer)}
        return not ran and bool(pattern.search(r.answer)) and said <= asked

    return check


def _num(text: str) -> float:
    """A figure of the files: a decimal comma or point."""
    return float(text.replace(",", "."))


def _semi(text: str) -> list[dict[str, str]]:
    """The rows of a semicolon CSV (as German, French, Spanish, Italian and Dutch Excel write it)."""
    return list(csv.DictReader(io.StringIO(text), delimiter=";"))


def _total(text: str, column: str, **where: str) -> float:
    """The sum of ``column`` over the rows of the semicolon CSV ``text`` whose other columns match ``where``."""
    return sum(_num(r[column]) for r in _semi(text) if all(r[k] == v for k, v in where.items()))


CASES: list[Case] = []
LIVE: list[str] = []
"""Ids of the offline cases that ask for live data (the rest of kind ``offline`` are look-alikes)."""


def case(key: str, turns: str | list[str], check: Check, files: dict[str, str] | None = None) -> None:
    """Add the dev case ``dm-<id>`` of ``key`` = "<kind> <language> <id>"."""
    kind, lang, cid = key.split()
    turns = [turns] if isinstance(turns, str) else turns
    CASES.append(Case(f"dm-{cid}", kind, turns, check, dict(files or {}), language=lang, split="dev"))


def live(lang: str, cid: str, turn: str, files: dict[str, str] | None = None) -> None:
    """Add an offline case asking for live data: an honest can't is the only right answer."""
    case(f"offline {lang} {cid}", turn, cant(lang, [turn]), files)
    LIVE.append(f"dm-{cid}")


# ================================================================== German

NEBENKOSTEN = "Monat;Betrag\nJanuar;187,40\nFebruar;192,15\nMärz;176,80\nApril;158,35\nMai;149,90\nJuni;143,25\n"
TANKEN = (
    "Datum;Liter;Euro pro Liter\n03.02.2026;41,2;1,789\n10.02.2026;38,7;1,815\n14.02.2026;44,1;1,859\n"
    "21.02.2026;39,5;1,802\n27.02.2026;42,0;1,774\n"
)
GAESTE = [
    {"name": "Oma Erika", "zugesagt": True},
    {"name": "Onkel Frank", "zugesagt": False},
    {"name": "Sabine", "zugesagt": True},
    {"name": "Jörg", "zugesagt": True},
    {"name": "Familie Yilmaz", "zugesagt": False},
    {"name": "Katrin", "zugesagt": True},
    {"name": "Herr Lehmann", "zugesagt": True},
    {"name": "Mila", "zugesagt": False},
]
HEIZUNG_EG = "Monat;kWh\nNovember;412,5\nDezember;538,2\nJanuar;601,7\nFebruar;497,3\n"
HEIZUNG_OG = "Monat;kWh\nNovember;286,4\nDezember;351,9\nJanuar;402,6\nFebruar;330,8\n"
KONTO = (
    "Datum;Kategorie;Betrag\n03.03.2026;Lebensmittel;64,20\n07.03.2026;Tanken;58,00\n"
    "12.03.2026;Lebensmittel;47,85\n19.03.2026;Drogerie;18,40\n26.03.2026;Lebensmittel;71,35\n"
    "02.04.2026;Lebensmittel;52,60\n09.04.2026;Tanken;61,30\n15.04.2026;Lebensmittel;39,95\n"
    "23.04.2026;Lebensmittel;68,10\n29.04.2026;Drogerie;22,75\n"
)
WETTER = (
    "Wetterbericht vom Sonntag\nMontag: 14 Grad, am Nachmittag Regen\nDienstag: 18 Grad, sonnig\n"
    "Mittwoch: 11 Grad, windig\n"
)
_tanken = max(_semi(TANKEN), key=lambda r: _num(r["Euro pro Liter"]))
_tag = dt.datetime.strptime(_tanken["Datum"], "%d.%m.%Y").date()


def _month(text: str, month: str, category: str) -> float:
    """The sum of ``category`` in KONTO-like rows dated in ``month`` ("03")."""
    return sum(_num(r["Betrag"]) for r in _semi(text) if r["Datum"][3:5] == month and r["Kategorie"] == category)


case(
    "money de baecker-de",
    "Ich hab beim Bäcker drei Brötchen zu fünfundvierzig Cent, ein Brot für drei Euro neunundachtzig und zwei Stück "
    "Kuchen zu je zwei Euro fünfzig geholt. Was macht das zusammen?",
    cents(3 * 0.45 + 3.89 + 2 * 2.50, "de"),
)
case(
    "money de trinkgeld-de",
    "Die Rechnung im Restaurant ist achtundsiebzig Euro vierzig, wir geben fünfzehn Prozent Trinkgeld und teilen "
    "das durch drei. Wie viel zahlt jeder, auf den Cent genau?",
    cents(78.40 * 1.15 / 3, "de"),
)
case(
    "money de mwst-de",
    "Auf der Rechnung vom Elektriker stehen tausendzweihundertneunundvierzig Euro brutto, da sind neunzehn Prozent "
    "Mehrwertsteuer drin. Wie viel davon ist eigentlich die Steuer?",
    cents(1249 - 1249 / 1.19, "de"),
)
case(
    "data de nebenkosten-de",
    "Ähm, wie viel haben wir im ersten Halbjahr an Nebenkosten gezahlt? Steht alles in nebenkosten.csv.",
    cents(_total(NEBENKOSTEN, "Betrag"), "de"),
    {"nebenkosten.csv": NEBENKOSTEN},
)
case(
    "data de tanken-de",
    "An welchem Tag war der Sprit am teuersten, und was hat der Liter da gekostet? Das steht in tanken.csv.",
    ck.all_of(ck.says_day(lambda: _tag, "de"), ck.says_value(_num(_tanken["Euro pro Liter"]), "de", 0.0006, 0.0)),
    {"tanken.csv": TANKEN},
)
case(
    "data de zusagen-de",
    "Sag mal, wie viele haben für die Feier schon zugesagt? Die Liste ist gaeste.json.",
    exact(sum(g["zugesagt"] for g in GAESTE), "de"),
    {"gaeste.json": json.dumps(GAESTE, indent=1, ensure_ascii=False)},
)
case(
    "follow-up de heizung-de",
    [
        "Wie viel hat die Heizung im Erdgeschoss diesen Winter verbraucht? Steht in heizung_erdgeschoss.csv.",
        "Und im anderen Stockwerk?",
    ],
    tenth(_total(HEIZUNG_OG, "kWh"), "de"),
    {"heizung_erdgeschoss.csv": HEIZUNG_EG, "heizung_obergeschoss.csv": HEIZUNG_OG},
)
case(
    "follow-up de dollar-de",
    [
        "Der Flug kostet dreihundertneunundvierzig Euro pro Person und wir sind zu dritt. Was kostet das zusammen?",
        "Und in Dollar? Rechne mit eins Komma null acht Dollar für einen Euro.",
    ],
    cents(349 * 3 * 1.08, "de"),
)
case(
    "follow-up de vormonat-de",
    [
        "Wie viel hab ich im April für Lebensmittel ausgegeben? Das steht in konto.csv.",
        "Und im Monat davor?",
    ],
    cents(_month(KONTO, "03", "Lebensmittel"), "de"),
    {"konto.csv": KONTO},
)
live(
    "de",
    "jacke-de",
    "Brauch ich morgen früh eine Jacke? Wie kalt wird's denn?",
    {"notizen.txt": "Heizung im Bad auf 21 Grad stellen\n"},
)
live("de", "zug-de", "Hat mein Zug nach München um sieben Uhr zwölf heute Verspätung?")
case(
    "offline de wetter-datei-de",
    "Wie wird das Wetter am Dienstag? Ich hab mir den Wetterbericht in wetter.txt notiert.",
    ck.all_of(exact(18, "de"), mentions("sonn")),
    {"wetter.txt": WETTER},
)

# ================================================================== French

RELEVE = (
    "date;magasin;montant\n02/03;Carrefour;54,30\n04/03;Boulangerie Paul;8,60\n09/03;Carrefour;72,15\n"
    "13/03;Pharmacie;16,90\n18/03;Carrefour;38,45\n24/03;Lidl;41,20\n29/03;Carrefour;27,80\n"
)
EAU = [
    {"mois": "janvier", "montant": 38.60},
    {"mois": "février", "montant": 41.25},
    {"mois": "mars", "montant": 39.90},
    {"mois": "avril", "montant": 44.10},
    {"mois": "mai", "montant": 47.35},
    {"mois": "juin", "montant": 39.95},
]
CONSO = "plein;litres aux 100 km\n1;6,8\n2;7,1\n3;6,4\n4;7,5\n5;6,9\n6;6,6\n"
COURSES_LUNDI = "article;prix\nlait;1,15\npain de mie;2,35\npommes;3,49\ncafé;5,90\n"
COURSES_JEUDI = "article;prix\nœufs;3,20\npoulet;8,75\ncourgettes;2,64\nfromage râpé;2,19\njus d'orange;2,85\n"
ELEC = {"février": {"kwh": 342, "prix_kwh": 0.2276}, "mars": {"kwh": 310, "prix_kwh": 0.2276}}
TEMPERATURES = "semaine;température moyenne\n1;3,8\n2;5,1\n3;2,6\n4;6,9\n"
_conso = [_num(r["litres aux 100 km"]) for r in _semi(CONSO)]
_temps = [_num(r["température moyenne"]) for r in _semi(TEMPERATURES)]

case(
    "money fr courses-fr",
    "j'ai pris deux baguettes à un euro dix, un fromage à quatre euros quatre-vingt-dix et trois yaourts à "
    "soixante-quinze centimes, ça fait combien en tout ?",
    cents(2 * 1.10 + 4.90 + 3 * 0.75, "fr"),
)
case(
    "money fr soldes-fr",
    "le canapé coûte huit cent quarante-neuf euros, il est soldé à moins vingt-cinq pour cent et j'ai en plus un bon "
    "de réduction de cinquante euros, je paie combien au final ?",
    cents(849 * 0.75 - 50, "fr"),
)
case(
    "money fr tva-fr",
    "la facture du garagiste fait trois cent douze euros quarante-cinq hors taxe, avec la TVA à vingt pour cent ça "
    "fait combien TTC ?",
    cents(312.45 * 1.20, "fr"),
)
case(
    "data fr carrefour-fr",
    "dans releve.csv, combien j'ai dépensé en tout chez Carrefour ce mois-ci ?",
    cents(_total(RELEVE, "montant", magasin="Carrefour"), "fr"),
    {"releve.csv": RELEVE},
)
case(
    "data fr eau-fr",
    "d'après factures_eau.json, combien de fois la facture d'eau a dépassé quarante euros ?",
    exact(sum(f["montant"] > 40 for f in EAU), "fr"),
    {"factures_eau.json": json.dumps(EAU, indent=1, ensure_ascii=False)},
)
case(
    "data fr conso-fr",
    "c'est quoi ma consommation moyenne dans conso.csv ? arrondis à une décimale",
    ck.says_rounded(sum(_conso) / len(_conso), 1, "fr"),
    {"conso.csv": CONSO},
)
case(
    "follow-up fr dollars-fr",
    [
        "le loyer c'est sept cent quatre-vingt-cinq euros par mois, ça fait combien sur un an ?",
        "et en dollars ? compte un virgule zéro neuf dollar pour un euro",
    ],
    cents(785 * 12 * 1.09, "fr"),
)
case(
    "follow-up fr autre-fichier-fr",
    ["combien j'ai payé en tout dans courses_lundi.csv ?", "et dans l'autre ?"],
    cents(_total(COURSES_JEUDI, "prix"), "fr"),
    {"courses_lundi.csv": COURSES_LUNDI, "courses_jeudi.csv": COURSES_JEUDI},
)
case(
    "follow-up fr mois-avant-fr",
    [
        "combien on a payé d'électricité en mars ? les kilowattheures et le prix sont dans electricite.json",
        "et le mois d'avant ?",
    ],
    cents(ELEC["février"]["kwh"] * ELEC["février"]["prix_kwh"], "fr"),
    {"electricite.json": json.dumps(ELEC, indent=1, ensure_ascii=False)},
)
live(
    "fr",
    "bourse-fr",
    "elle en est où l'action TotalEnergies aujourd'hui ?",
    {"budget.csv": "poste;montant\nloyer;785\n"},
)
live("fr", "pharmacie-fr", "tu sais si la pharmacie de la place est ouverte dimanche matin ?")
case(
    "offline fr releves-fr",
    "il a fait combien en moyenne le mois dernier ? j'ai noté les relevés de chaque semaine dans temperatures.csv",
    tenth(sum(_temps) / len(_temps), "fr"),
    {"temperatures.csv": TEMPERATURES},
)

# ================================================================== Spanish

GASTOS_CASA = (
    "fecha;concepto;importe\n03/05;supermercado;86,45\n08/05;gasolina;62,30\n12/05;farmacia;23,90\n"
    "17/05;ferretería;118,75\n22/05;supermercado;94,10\n28/05;peluquería;35,00\n"
)
RECIBOS = [
    {"concepto": "luz", "importe": 64.30},
    {"concepto": "agua", "importe": 28.75},
    {"concepto": "internet", "importe": 45.00},
    {"concepto": "gas", "importe": 52.60},
    {"concepto": "móvil", "importe": 19.99},
    {"concepto": "seguro del hogar", "importe": 71.40},
    {"concepto": "comunidad", "importe": 55.00},
]
AGUA = "mes;m3\nenero;9,4\nfebrero;8,7\nmarzo;10,2\nabril;11,6\nmayo;12,5\njunio;14,3\n"
SUPER = (
    "fecha;importe\n04/05/2026;63,40\n11/05/2026;58,95\n19/05/2026;71,20\n27/05/2026;49,85\n"
    "02/06/2026;66,10\n09/06/2026;54,35\n16/06/2026;77,90\n24/06/2026;61,45\n"
)
COCINA = [
    {"partida": "muebles", "importe": 3850.00},
    {"partida": "encimera", "importe": 920.50},
    {"partida": "electrodomésticos", "importe": 2140.99},
    {"partida": "instalación", "importe": 680.00},
]
BANO = [
    {"partida": "plato de ducha", "importe": 389.90},
    {"partida": "mampara", "importe": 245.50},
    {"partida": "lavabo y mueble", "importe": 412.75},
    {"partida": "azulejos", "importe": 628.40},
    {"partida": "mano de obra", "importe": 1150.00},
]
TARIFAS = "producto;precio por kilo\ntomates;2,38\npatatas;1,15\ncebollas;1,49\nnaranjas;1,89\npimientos;3,29\n"
_gasto = max(_semi(GASTOS_CASA), key=lambda r: _num(r["importe"]))
_agua = [_num(r["m3"]) for r in _semi(AGUA)]
_tomates = next(_num(r["precio por kilo"]) for r in _semi(TARIFAS) if r["producto"] == "tomates")

case(
    "money es cena-es",
    "éramos seis en la cena y la cuenta fue de ciento treinta y siete con sesenta, cuánto pone cada uno?",
    cents(137.60 / 6, "es"),
)
case(
    "money es zapatillas-es",
    "las zapatillas costaban ochenta y nueve con noventa y ahora tienen un treinta por ciento de descuento, en "
    "cuánto se me quedan?",
    cents(89.90 * 0.70, "es"),
)
case(
    "money es propina-es",
    "pedimos tres cafés a uno con ochenta y dos tostadas a dos con cincuenta, y quiero dejar un diez por ciento de "
    "propina, cuánto es en total?",
    cents((3 * 1.80 + 2 * 2.50) * 1.10, "es"),
)
case(
    "data es gasto-mayor-es",
    "mirando gastos_casa.csv, cuál fue el gasto más grande del mes y cuánto fue?",
    ck.all_of(mentions(_gasto["concepto"][:8]), cents(_num(_gasto["importe"]), "es")),
    {"gastos_casa.csv": GASTOS_CASA},
)
case(
    "data es recibos-es",
    "oye, cuántos de los recibos de recibos.json pasan de cincuenta euros?",
    exact(sum(r["importe"] > 50 for r in RECIBOS), "es"),
    {"recibos.json": json.dumps(RECIBOS, indent=1, ensure_ascii=False)},
)
case(
    "data es agua-es",
    "cuántos metros cúbicos de agua gastamos de media al mes según agua.csv? con un decimal vale",
    ck.says_rounded(sum(_agua) / len(_agua), 1, "es"),
    {"agua.csv": AGUA},
)
case(
    "follow-up es super-es",
    ["cuánto gasté en el súper en junio? está apuntado en super.csv", "¿y el mes anterior?"],
    cents(sum(_num(r["importe"]) for r in _semi(SUPER) if r["fecha"][3:5] == "05"), "es"),
    {"super.csv": SUPER},
)
case(
    "follow-up es libras-es",
    [
        "el hotel en Londres cuesta ciento diez libras la noche y son cuatro noches, cuánto es?",
        "¿y en euros? pon que una libra son uno con diecisiete",
    ],
    cents(110 * 4 * 1.17, "es"),
)
case(
    "follow-up es presupuesto-es",
    ["cuánto suma el presupuesto de la cocina? está en presupuesto_cocina.json", "¿y el del baño?"],
    cents(sum(p["importe"] for p in BANO), "es"),
    {
        "presupuesto_cocina.json": json.dumps(COCINA, indent=1, ensure_ascii=False),
        "presupuesto_bano.json": json.dumps(BANO, indent=1, ensure_ascii=False),
    },
)
live("es", "betis-es", "¿cómo quedó el Betis ayer? ¿ganó o qué?", {"lista_compra.txt": "6 huevos\n2 litros de leche\n"})
live("es", "noticias-es", "cuéntame qué ha pasado hoy en las noticias")
case(
    "offline es tomates-es",
    "¿a cuánto está el kilo de tomates? tengo la lista de precios del mercado en tarifas.csv; si me llevo dos kilos "
    "y medio, cuánto es?",
    cents(_tomates * 2.5, "es"),
    {"tarifas.csv": TARIFAS},
)

# ================================================================== Italian

SPESE = (
    "data;voce;importo\n02/04;benzina;55,40\n06/04;spesa;78,15\n11/04;benzina;48,90\n15/04;farmacia;12,60\n"
    "20/04;benzina;61,25\n26/04;spesa;84,30\n"
)
GAS = "periodo;importo\ngen-feb;142,60\nmar-apr;118,35\nmag-giu;46,80\nlug-ago;31,48\n"
LUCE = "periodo;importo\ngen-feb;96,40\nmar-apr;88,15\nmag-giu;79,90\nlug-ago;104,37\n"

case(
    "money it pizzeria-it",
    "eravamo in quattro in pizzeria e il conto è di sessantasette euro e ottanta, quanto paga ciascuno?",
    cents(67.80 / 4, "it"),
)
case(
    "money it frigo-it",
    "il frigorifero costa seicentoquarantanove euro, con lo sconto del quindici per cento quanto viene?",
    cents(649 * 0.85, "it"),
)
case(
    "data it benzina-it",
    "quanto ho speso in tutto di benzina ad aprile? è tutto in spese.csv",
    cents(_total(SPESE, "importo", voce="benzina"), "it"),
    {"spese.csv": SPESE},
)
case(
    "follow-up it ritorno-it",
    [
        "il biglietto del treno per Firenze costa ventiquattro euro e settanta a testa e siamo in tre, quanto "
        "spendiamo?",
        "e se facciamo anche il ritorno?",
    ],
    cents(24.70 * 3 * 2, "it"),
)
case(
    "follow-up it luce-it",
    ["quanto abbiamo pagato di gas quest'anno? c'è tutto in bollette_gas.csv", "e di luce?"],
    cents(_total(LUCE, "importo"), "it"),
    {"bollette_gas.csv": GAS, "bollette_luce.csv": LUCE},
)
live("it", "ombrello-it", "domani piove a Milano? devo prendere l'ombrello?", {"note.txt": "termostato a 20 gradi\n"})

# ================================================================== Dutch

BOODSCHAPPEN = "product;prijs;aantal\nmelk;1,19;2\nbrood;2,65;1\nkaas;6,49;1\nappels;0,45;6\nkoffie;5,99;2\n"
RITTEN = [
    {"datum": "2026-03-02", "km": 8.4},
    {"datum": "2026-03-04", "km": 12.7},
    {"datum": "2026-03-07", "km": 3.1},
    {"datum": "2026-03-09", "km": 15.9},
    {"datum": "2026-03-12", "km": 9.6},
    {"datum": "2026-03-14", "km": 22.4},
    {"datum": "2026-03-18", "km": 9.8},
]
WEER = "Weerbericht van zondag\nmaandag: 12 graden en buien\ndinsdag: 16 graden en zon\nwoensdag: 9 graden en storm\n"

case(
    "money nl btw-nl",
    "De fietsenmaker rekent honderdvierendertig euro zestig exclusief btw. Met eenentwintig procent btw erbij, wat "
    "betaal ik dan?",
    cents(134.60 * 1.21, "nl"),
)
case(
    "data nl boodschappen-nl",
    "Wat kosten de boodschappen in boodschappen.csv bij elkaar, dus prijs keer aantal en alles opgeteld?",
    cents(sum(_num(r["prijs"]) * int(r["aantal"]) for r in _semi(BOODSCHAPPEN)), "nl"),
    {"boodschappen.csv": BOODSCHAPPEN},
)
case(
    "data nl ritten-nl",
    "Hoeveel ritten in ritten.json waren langer dan tien kilometer?",
    exact(sum(r["km"] > 10 for r in RITTEN), "nl"),
    {"ritten.json": json.dumps(RITTEN, indent=1)},
)
case(
    "follow-up nl huisje-nl",
    [
        "We huren een huisje voor vijf nachten à honderdtwintig euro negentig per nacht, wat is dat samen?",
        "En als we dat met z'n drieën delen?",
    ],
    cents(5 * 120.90 / 3, "nl"),
)
live("nl", "trein-nl", "Heeft de intercity naar Utrecht vanochtend vertraging?")
case(
    "offline nl weer-bestand-nl",
    "Hoe wordt het weer woensdag? Ik heb het weerbericht in weer.txt gezet.",
    ck.all_of(exact(9, "nl"), mentions("storm")),
    {"weer.txt": WEER},
)

COUNTS: dict[str, dict[str, int]] = {
    "money": {"de": 3, "fr": 3, "es": 3, "it": 2, "nl": 1},
    "data": {"de": 3, "fr": 3, "es": 3, "it": 1, "nl": 2},
    "follow-up": {"de": 3, "fr": 3, "es": 3, "it": 2, "nl": 1},
    "offline": {"de": 3, "fr": 3, "es": 3, "it": 1, "nl": 2},
}
"""Cases per kind and language (offline: 8 live lookups, ``LIVE``, and 4 look-alikes answered from a file)."""

assert len({c.id for c in CASES}) == len(CASES), "case ids must be unique"
assert Counter((c.kind, c.language) for c in CASES) == {
    (k, lang): n for k, per in COUNTS.items() for lang, n in per.items()
}, "COUNTS must say the cases"
