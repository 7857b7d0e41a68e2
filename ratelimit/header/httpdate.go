package header

import "time"

// The three HTTP-date forms of RFC 9110 section 5.6.7:
//
//	IMF-fixdate  Sun, 06 Nov 1994 08:49:37 GMT
//	rfc850-date  Sunday, 06-Nov-94 08:49:37 GMT
//	asctime-date Sun Nov  6 08:49:37 1994
//
// parseHTTPDate matches them byte by byte, case-sensitively as the
// grammar's %s"..." literals are, without allocating.

// word3 packs three bytes for a switch; 0 when s is shorter.
func word3(s string) uint32 {
	if len(s) < 3 {
		return 0
	}
	return uint32(s[0])<<16 | uint32(s[1])<<8 | uint32(s[2])
}

const (
	wSun = 'S'<<16 | 'u'<<8 | 'n'
	wMon = 'M'<<16 | 'o'<<8 | 'n'
	wTue = 'T'<<16 | 'u'<<8 | 'e'
	wWed = 'W'<<16 | 'e'<<8 | 'd'
	wThu = 'T'<<16 | 'h'<<8 | 'u'
	wFri = 'F'<<16 | 'r'<<8 | 'i'
	wSat = 'S'<<16 | 'a'<<8 | 't'
)

// parseHTTPDate reports the Unix time of the HTTP-date s.
func parseHTTPDate(s string, now time.Time) (int64, bool) {
	switch {
	case len(s) == 29 && s[3] == ',':
		return parseIMFFixdate(s)
	case len(s) == 24 && s[3] == ' ':
		return parseAsctime(s)
	case len(s) >= 30 && len(s) <= 33:
		return parseRFC850(s, now)
	}
	return 0, false
}

// parseIMFFixdate parses "Sun, 06 Nov 1994 08:49:37 GMT".
func parseIMFFixdate(s string) (int64, bool) {
	if !isShortDay(s[0:3]) || s[3] != ',' || s[4] != ' ' || s[7] != ' ' || s[11] != ' ' ||
		s[16] != ' ' || s[25:] != " GMT" {
		return 0, false
	}
	day, ok1 := twoDigits(s[5:7])
	mon, ok2 := httpMonth(s[8:11])
	year, ok3 := fourDigits(s[12:16])
	if !ok1 || !ok2 || !ok3 {
		return 0, false
	}
	return dateFromParts(year, mon, day, s[17:25])
}

// parseAsctime parses "Sun Nov  6 08:49:37 1994" (day padded with a space).
func parseAsctime(s string) (int64, bool) {
	if !isShortDay(s[0:3]) || s[3] != ' ' || s[7] != ' ' || s[10] != ' ' || s[19] != ' ' {
		return 0, false
	}
	mon, ok1 := httpMonth(s[4:7])
	var day int
	var ok2 bool
	if s[8] == ' ' {
		if isASCIIDigit(s[9]) {
			day, ok2 = int(s[9]-'0'), true
		}
	} else {
		day, ok2 = twoDigits(s[8:10])
	}
	year, ok3 := fourDigits(s[20:24])
	if !ok1 || !ok2 || !ok3 {
		return 0, false
	}
	return dateFromParts(year, mon, day, s[11:19])
}

// parseRFC850 parses "Sunday, 06-Nov-94 08:49:37 GMT".
func parseRFC850(s string, now time.Time) (int64, bool) {
	comma := -1
	for i := 6; i <= 9 && i < len(s); i++ {
		if s[i] == ',' {
			comma = i
			break
		}
	}
	if comma < 0 || !isLongDay(s[:comma]) {
		return 0, false
	}
	r := s[comma:] // ", 06-Nov-94 08:49:37 GMT"
	if len(r) != 24 || r[1] != ' ' || r[4] != '-' || r[8] != '-' || r[11] != ' ' || r[20:] != " GMT" {
		return 0, false
	}
	day, ok1 := twoDigits(r[2:4])
	mon, ok2 := httpMonth(r[5:8])
	yy, ok3 := twoDigits(r[9:11])
	if !ok1 || !ok2 || !ok3 {
		return 0, false
	}
	// RFC 9110 section 5.6.7: a two-digit year that appears to be more
	// than 50 years in the future is the most recent past year with the
	// same last two digits.
	cur := now.UTC().Year()
	year := cur - cur%100 + yy
	if year > cur+50 {
		year -= 100
	} else if year <= cur-50 {
		year += 100
		if year > cur+50 {
			year -= 100
		}
	}
	return dateFromParts(year, mon, day, r[12:20])
}

// dateFromParts checks "hh:mm:ss" and the day of the month, and reports
// the Unix time. A leap second, 60, is the first second of the next
// minute, as time.Date would have it.
func dateFromParts(year int, mon time.Month, day int, hms string) (int64, bool) {
	if hms[2] != ':' || hms[5] != ':' {
		return 0, false
	}
	hh, ok1 := twoDigits(hms[0:2])
	mm, ok2 := twoDigits(hms[3:5])
	ss, ok3 := twoDigits(hms[6:8])
	if !ok1 || !ok2 || !ok3 || hh > 23 || mm > 59 || ss > 60 {
		return 0, false
	}
	if day < 1 || day > httpDaysIn(mon, year) {
		return 0, false
	}
	return daysFromCivil(year, int(mon), day)*86400 + int64(hh*3600+mm*60+ss), true
}

// daysFromCivil reports the days from 1970-01-01 to the given date of the
// proleptic Gregorian calendar (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	doy := (153*((m+9)%12)+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

func httpDaysIn(m time.Month, year int) int {
	switch m {
	case time.February:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}

func twoDigits(s string) (int, bool) {
	if !isASCIIDigit(s[0]) || !isASCIIDigit(s[1]) {
		return 0, false
	}
	return int(s[0]-'0')*10 + int(s[1]-'0'), true
}

func fourDigits(s string) (int, bool) {
	a, ok1 := twoDigits(s[0:2])
	b, ok2 := twoDigits(s[2:4])
	return a*100 + b, ok1 && ok2
}

func httpMonth(s string) (time.Month, bool) {
	switch word3(s) {
	case 'J'<<16 | 'a'<<8 | 'n':
		return time.January, true
	case 'F'<<16 | 'e'<<8 | 'b':
		return time.February, true
	case 'M'<<16 | 'a'<<8 | 'r':
		return time.March, true
	case 'A'<<16 | 'p'<<8 | 'r':
		return time.April, true
	case 'M'<<16 | 'a'<<8 | 'y':
		return time.May, true
	case 'J'<<16 | 'u'<<8 | 'n':
		return time.June, true
	case 'J'<<16 | 'u'<<8 | 'l':
		return time.July, true
	case 'A'<<16 | 'u'<<8 | 'g':
		return time.August, true
	case 'S'<<16 | 'e'<<8 | 'p':
		return time.September, true
	case 'O'<<16 | 'c'<<8 | 't':
		return time.October, true
	case 'N'<<16 | 'o'<<8 | 'v':
		return time.November, true
	case 'D'<<16 | 'e'<<8 | 'c':
		return time.December, true
	}
	return 0, false
}

func isShortDay(s string) bool {
	switch word3(s) {
	case wSun, wMon, wTue, wWed, wThu, wFri, wSat:
		return len(s) == 3
	}
	return false
}

// isLongDay reports whether s is a day-name-l of RFC 850 dates.
func isLongDay(s string) bool {
	switch s {
	case "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday":
		return true
	}
	return false
}
